import { describe, expect, it } from '@jest/globals';
import { queryFocusedAnswer } from './query-answer.js';

describe('queryFocusedAnswer', () => {
  const materials = [
    'The team met on Monday to plan the launch. The budget for the remote control was cut to twelve euros.',
    'Marketing wants a fruity design with bright colours. Nobody liked the idea of a spongy case.',
  ];

  it('keeps the sentences closest to the question, in material order, within the budget', () => {
    expect(
      queryFocusedAnswer('What was decided about the budget of the remote control?', materials, 14),
    ).toBe('The budget for the remote control was cut to twelve euros.');
    expect(queryFocusedAnswer('What design and budget did they discuss?', materials, 40)).toBe(
      'The budget for the remote control was cut to twelve euros. Marketing wants a fruity design with bright colours.',
    );
  });

  it('gives an empty answer when the materials have no sentence', () => {
    expect(queryFocusedAnswer('Anything?', ['', '  '], 50)).toBe('');
  });
});
