import { describe, expect, it } from '@jest/globals';
import { contentTerms } from '@precis/engines';
import { greedyLabels, labelWords } from './labels.js';
import { greedyMatchScore } from './metrics/greedy-match.js';

// Content terms (plurals folded): [cat, met, dog], [dog, barked, cat, dog], [budget, meeting],
// [zebra] (no vector), [ghost] (a zero vector).
const nodes = [
  'The cats met the dogs.',
  'A dog barked at cats and dogs.',
  'Budget meetings.',
  'The zebra.',
  'A ghost.',
];
const vectors = new Map<string, Float32Array>(
  Object.entries({
    cat: [1, 0, 0],
    dog: [1, 1, 0],
    met: [0, 1, 1],
    barked: [0, 0, 2],
    budget: [0, 1, 0],
    meeting: [1, 0, 1],
    ghost: [0, 0, 0],
  }).map(([w, v]) => [w, Float32Array.from(v)]),
);

// The reference: greedy matching over one vector per occurrence of each known word.
const occurrences = (text: string) =>
  contentTerms(text).flatMap((t) => {
    const v = vectors.get(t);
    return v?.some((x) => x !== 0) ? [Array.from(v)] : [];
  });

describe('greedyLabels', () => {
  it('checks the example terms (plurals folded to the vector keys)', () => {
    // Guards the fixture: if folding changed, the vectors above would silently stop matching.
    expect(nodes.map((n) => contentTerms(n))).toEqual([
      ['cat', 'met', 'dog'],
      ['dog', 'barked', 'cat', 'dog'],
      ['budget', 'meeting'],
      ['zebra'],
      ['ghost'],
    ]);
  });

  it('equals BERTScore-style F1 over per-occurrence word vectors', () => {
    const sources = [0, 2, 1];
    const labels = greedyLabels(nodes, sources, vectors);
    expect(labels).toHaveLength(3);
    sources.forEach((source, i) => {
      expect(labels[i]).toHaveLength(nodes.length);
      nodes.forEach((node, j) => {
        const expected = greedyMatchScore(occurrences(node), occurrences(nodes[source]!)).f1;
        expect(labels[i]![j]).toBeCloseTo(expected, 6);
      });
    });
  });

  it('counts a repeated word once per occurrence (hand-computed)', () => {
    const [row] = greedyLabels(nodes, [0], vectors);
    // Node 1 against node 0: precision (dog 1 + barked 1/√2 + cat 1 + dog 1) / 4,
    // recall (cat 1 + met 1/√2 + dog 1) / 3.
    const p = (3 + Math.SQRT1_2) / 4;
    const r = (2 + Math.SQRT1_2) / 3;
    expect(row![1]).toBeCloseTo((2 * p * r) / (p + r), 6);
    // Counting distinct words only would give p = (2 + 1/√2) / 3 and F1 = r: must differ.
    expect(Math.abs(row![1]! - r)).toBeGreaterThan(1e-3);
  });

  it('labels the source chunk itself 1', () => {
    const labels = greedyLabels(nodes, [0, 1, 2], vectors);
    expect(labels[0]![0]).toBeCloseTo(1, 6);
    expect(labels[1]![1]).toBeCloseTo(1, 6);
    expect(labels[2]![2]).toBeCloseTo(1, 6);
  });

  it('gives 0 to a node with no known word or only a zero vector, and when the source has none', () => {
    const labels = greedyLabels(nodes, [0, 3], vectors);
    expect([labels[0]![3], labels[0]![4]]).toEqual([0, 0]);
    // Source 3 has no known word: every node scores 0 against it.
    expect(labels[1]).toEqual([0, 0, 0, 0, 0]);
  });

  it('returns no rows for no sources', () => {
    expect(greedyLabels(nodes, [], vectors)).toEqual([]);
  });
});

describe('labelWords', () => {
  it('lists the distinct content terms in first-seen order', () => {
    expect(labelWords(['The cats met the dogs.', 'Dogs and a cat barked; the dog barked.'])).toEqual([
      'cat',
      'met',
      'dog',
      'barked',
    ]);
    expect(labelWords(['the of and', ''])).toEqual([]);
  });
});
