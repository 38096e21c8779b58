import { describe, expect, it } from '@jest/globals';
import { compareMetrics, compareSampleScores, groupCorrelations } from './compare.js';
import { parseSampleScoresText } from './sample-scores-file.js';

// Two products x 3 systems; the first half of the samples follows the human order, the second
// half reverses it.
const rows = [
  { product: 'p1', system: 'a', human: 1, samples: [1, 1, 3, 3] },
  { product: 'p1', system: 'b', human: 2, samples: [2, 2, 2, 2] },
  { product: 'p1', system: 'c', human: 3, samples: [3, 3, 1, 1] },
  { product: 'p2', system: 'a', human: 5, samples: [5, 4, 1, null] },
  { product: 'p2', system: 'b', human: 4, samples: [3, null, 2, 3] },
  { product: 'p2', system: 'c', human: 1, samples: [1, 2, 5, 4] },
];
const jsonl = (dimension: string, extra: Record<string, unknown> = {}) =>
  rows.map((r) => JSON.stringify({ ...r, dimension, ...extra })).join('\n');

describe('groupCorrelations', () => {
  it('splits samples into contiguous groups and correlates each group with the humans', () => {
    const file = parseSampleScoresText('a.jsonl', jsonl('fl'));
    const g = groupCorrelations(file.rows, 2, 'spearman');
    expect(g.groupSizes).toEqual([2, 2]);
    expect(g.correlations[0]).toBeCloseTo(1, 12);
    expect(g.correlations[1]).toBeCloseTo(-1, 12);
  });

  it('refuses more groups than samples', () => {
    const file = parseSampleScoresText('a.jsonl', jsonl('fl'));
    expect(() => groupCorrelations(file.rows, 5)).toThrow(/only 4 samples/);
  });
});

describe('compareMetrics', () => {
  it('runs Mann-Whitney U and Welch t on per-group correlations', () => {
    const r = compareMetrics({ a: [0.5, 0.6, 0.7], b: [0.1, 0.2, 0.3] });
    expect(r.mannWhitney.u).toBe(9);
    expect(r.mannWhitney.method).toBe('exact');
    expect(r.mannWhitney.pValue).toBeCloseTo(0.1, 12);
    expect(r.welch.t).toBeCloseTo(0.4 / Math.sqrt(0.02 / 3), 10);
    expect(r.welch.df).toBeCloseTo(4, 10);
    expect(r.a.mean).toBeCloseTo(0.6, 12);
    expect(() => compareMetrics({ a: [0.5], b: [0.1, 0.2] })).toThrow(/at least 2/);
  });

  it('compares two sample files per dimension and names the judges', () => {
    const a = parseSampleScoresText('a.jsonl', jsonl('fluency', { judge: 'fake-model op-i@1' }));
    const b = parseSampleScoresText('b.jsonl', jsonl('fl'));
    const report = compareSampleScores(a, b, 2);
    expect(Object.keys(report.dimensions)).toEqual(['fluency']);
    expect(report.a.judges).toEqual(['fake-model op-i@1']);
    expect(report.dimensions.fluency!.correlations.a).toHaveLength(2);
  });
});

describe('parseSampleScoresText', () => {
  it('names file, line and field on bad input', () => {
    expect(() =>
      parseSampleScoresText(
        's.jsonl',
        '{"product":"p","system":"a","dimension":"xx","samples":[1],"human":3}',
      ),
    ).toThrow('s.jsonl, line 1, field dimension: unknown dimension "xx"');
    expect(() =>
      parseSampleScoresText(
        's.jsonl',
        `\n${JSON.stringify({ product: 'p', system: 'a', dimension: 'fl', samples: [1, 'x'], human: 3 })}`,
      ),
    ).toThrow('s.jsonl, line 2, field samples[1]: must be a number or null');
    expect(() =>
      parseSampleScoresText('s.jsonl', '{"product":"p","system":"a","dimension":"fl","samples":[1]}'),
    ).toThrow(/field human/);
  });
});
