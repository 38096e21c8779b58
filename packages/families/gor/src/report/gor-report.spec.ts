import { describe, expect, it } from '@jest/globals';
import type { GorRow } from '../score/gor-row.js';
import { gorReport, rankGorRows } from './gor-report.js';

const complete = { summaries: { expected: 2, failed: 0 }, judgments: { expected: 0, failed: 0 } };
const failed = { summaries: { expected: 2, failed: 1 }, judgments: { expected: 0, failed: 0 } };
const row = (system: string, rougeL: number | null, metric = 'rouge.0'): GorRow => ({
  system,
  summarizer: 'engine:textrank',
  strategy: 'gor',
  ranker: 'gat',
  metric,
  judge: '',
  samples: 2,
  work: rougeL === null ? failed : complete,
  status: rougeL === null ? 'incomplete: 1 of 2 summaries failed' : 'complete',
  // ROUGE-1 runs against ROUGE-L so ranking by the wrong key would show.
  rouge: rougeL === null ? null : { rouge1: 100 - rougeL, rouge2: 5, rougeL },
  ci95: {},
  training: null,
  pairwise: [],
});

describe('rankGorRows', () => {
  it('ranks complete rows by ROUGE-L descending, ties by name, incomplete rows unranked last', () => {
    const rows = [
      row('zeta', null),
      row('gamma', 30),
      row('beta', 35),
      row('alpha-inc', null),
      row('delta', 30),
      row('alpha', 30),
    ];
    expect(rankGorRows(rows).map((r) => [r.rank, r.system])).toEqual([
      [1, 'beta'],
      [2, 'alpha'],
      [3, 'delta'],
      [4, 'gamma'],
      [null, 'alpha-inc'],
      [null, 'zeta'],
    ]);
  });

  it('ranks each metric on its own, metrics in first-seen order', () => {
    const rows = [row('a', 10, 'rouge.1'), row('b', 20, 'rouge.0'), row('c', 40, 'rouge.1'), row('d', null)];
    expect(rankGorRows(rows).map((r) => [r.metric, r.rank, r.system])).toEqual([
      ['rouge.1', 1, 'c'],
      ['rouge.1', 2, 'a'],
      ['rouge.0', 1, 'b'],
      ['rouge.0', null, 'd'],
    ]);
  });

  it('keeps the rows as they were, without reordering the input', () => {
    const rows = [row('b', 1), row('a', 2)];
    const ranked = rankGorRows(rows);
    expect(ranked[0]).toEqual({ rank: 1, ...rows[1] });
    expect(rows.map((r) => r.system)).toEqual(['b', 'a']);
    expect(rankGorRows([])).toEqual([]);
  });
});

describe('gorReport JSON', () => {
  it('lists the rows ranked under "gor"', () => {
    const json = gorReport.json({ rows: [row('b', 10), row('a', 20)] }) as { gor: { system: string }[] };
    expect(json.gor.map((r) => r.system)).toEqual(['a', 'b']);
    expect([gorReport.hasResults({ rows: [] }), gorReport.hasResults({ rows: [row('a', 1)] })]).toEqual([
      false,
      true,
    ]);
  });
});
