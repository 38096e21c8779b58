import { describe, expect, it } from '@jest/globals';
import { lexicallyInferred, lexicalOpinionError, termRecall } from './lexical-verifier.js';

describe('lexical verifier', () => {
  it('counts a claim as inferred when 60% of its content terms occur in the text', () => {
    const text = 'The council voted to close the Elm Street library branch.';
    expect(termRecall('The council closed the library branch', text)).toBeCloseTo(3 / 4, 12);
    expect(lexicallyInferred('The council closed the library branch', text)).toBe(true);
    expect(lexicallyInferred('The mayor opened a new pool on Sunday', text)).toBe(false);
  });

  it('names a missing speaker OM, a missing referent IRU, else OFI', () => {
    const speakers = ['Person1', 'Person2'];
    const op = 'Person1 thinks **closing the Elm Street branch** is short-sighted.';
    expect(lexicalOpinionError(op, 'Person2 likes the Sunday plan.', speakers)).toBe('OM');
    expect(lexicalOpinionError(op, 'Person1 thinks it is short-sighted.', speakers)).toBe('IRU');
    expect(lexicalOpinionError(op, 'Person1 praises closing the Elm Street branch.', speakers)).toBe('OFI');
  });
});
