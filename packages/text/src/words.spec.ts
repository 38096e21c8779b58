import { describe, expect, it } from '@jest/globals';
import {
  ngramKeys,
  ngrams,
  novelNgramShare,
  repeatedNgramShare,
  truncateWords,
  wordCount,
  words,
} from './words.js';

describe('words', () => {
  it('tokenizes words for n-gram statistics', () => {
    expect(words("Don’t stop—the well-known U.S. firm paid $3.50, didn't it?")).toEqual([
      "don't",
      'stop',
      'the',
      'well-known',
      'u.s',
      'firm',
      'paid',
      '3.50',
      "didn't",
      'it',
    ]);
    expect(words('')).toEqual([]);
  });

  it('counts whitespace-separated words that hold a letter or digit', () => {
    expect(wordCount('Hello, world — this is  a\ntest .')).toBe(6);
    expect(wordCount('U.S. and/or 3.5%')).toBe(3);
    expect(wordCount('   ')).toBe(0);
  });

  it('truncates to a word budget', () => {
    expect(truncateWords('One two — three four.', 3)).toBe('One two — three');
    expect(truncateWords('One two', 5)).toBe('One two');
    expect(truncateWords('One two', 0)).toBe('');
    expect(wordCount(truncateWords('a b c d e f', 4))).toBe(4);
  });

  it('builds n-grams', () => {
    expect(ngrams(['a', 'b', 'c', 'd'], 3)).toEqual([
      ['a', 'b', 'c'],
      ['b', 'c', 'd'],
    ]);
    expect(ngramKeys(['a', 'b'], 3)).toEqual([]);
    expect(ngramKeys(['a', 'b', 'c'], 2)).toEqual(['a b', 'b c']);
    expect(() => ngrams(['a'], 0)).toThrow(/positive integer/);
  });

  it('computes the share of novel trigrams against the source', () => {
    const source = 'the cat sat on the mat and the dog sat on the rug';
    // trigrams: the cat sat, cat sat on, sat on the, on the rug (all in the source), the rug today (novel)
    expect(novelNgramShare('The cat sat on the rug today.', source)).toBeCloseTo(1 / 5);
    expect(novelNgramShare('the cat sat', source)).toBe(0);
    expect(novelNgramShare('purple elephants dance wildly', source)).toBe(1);
    expect(novelNgramShare('too short', source)).toBe(0);
    // Same source again (cached set) and then another n.
    expect(novelNgramShare('cat sat on the mat', source, 3)).toBe(0);
    expect(novelNgramShare('cat sat under', source, 2)).toBeCloseTo(1 / 2);
  });

  it('computes the share of repeated trigrams inside a text', () => {
    expect(repeatedNgramShare('a b c a b c')).toBeCloseTo(1 - 3 / 4);
    expect(repeatedNgramShare('one two three four')).toBe(0);
    expect(repeatedNgramShare('x x x x x')).toBeCloseTo(1 - 1 / 3);
    expect(repeatedNgramShare('')).toBe(0);
  });
});
