import { describe, expect, it } from '@jest/globals';
import { simulateQueries } from './query-simulation.js';

// Draws in [0, 1): 0.1 picks chunk 0 of 3, 0.5 chunk 1, 0.9 chunk 2.
const draws = (...xs: number[]) => {
  let i = 0;
  return () => xs[i++ % xs.length]!;
};

const chunks = [
  'The committee met on Tuesday. The budget for libraries was cut by ten percent.',
  'Members discussed the budget. Teachers asked for smaller classes and new laptops.',
  'The chair closed the meeting. Parking fees near the hospital will rise next year.',
];

describe('offline query simulation', () => {
  it('asks about the rarest terms of a chunk’s most salient sentence, each question once', () => {
    // Chunk 2 drawn twice: its question is asked once, then chunks 0 and 1.
    const queries = simulateQueries(chunks, 3, draws(0.9, 0.95, 0.1, 0.5));
    expect(queries).toEqual([
      { chunk: 2, question: 'What is said about parking, fee, near?' },
      { chunk: 0, question: 'What is said about library, cut, ten?' },
      { chunk: 1, question: 'What is said about teacher, asked, smaller?' },
    ]);
  });
  it('gives fewer questions when the chunks have no more to ask', () => {
    expect(simulateQueries(chunks, 10, draws(0.1, 0.5, 0.9))).toHaveLength(3);
    expect(simulateQueries(['Yes.', 'No.'], 5, draws(0.2))).toEqual([]);
    expect(simulateQueries([], 5, draws(0.2))).toEqual([]);
  });
});
