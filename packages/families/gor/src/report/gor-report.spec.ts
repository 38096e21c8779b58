import { describe, expect, it } from '@jest/globals';
import { rankBoard, renderText, sectionJson } from '@precis/engine';
import type { GorRow } from '../score/gor-row.js';
import { gorBlocks, gorBoards, gorReport } from './gor-report.js';

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

const opts = { alpha: 0.05, resamples: 1000, seed: 1 };
// Each system's ROUGE-L on six meetings: its mean plus a fixed wobble, so systems 5 apart separate.
const values = (rows: readonly GorRow[]) =>
  new Map([
    [
      'rougeL',
      new Map(
        rows
          .filter((r) => r.rouge)
          .map((r) => [
            r.system,
            new Map([-1, 1, -0.5, 0.5, 0, 0].map((w, d) => [`m${d}`, r.rouge!.rougeL + w])),
          ]),
      ),
    ],
  ]);
const ranked = (rows: GorRow[]) => gorBoards({ rows }).map((b) => rankBoard(b, values(rows), opts));

describe('gorBoards', () => {
  it('ranks complete rows by evidence on ROUGE-L, ordered by mean, incomplete rows unranked last', () => {
    const rows = [
      row('zeta', null),
      row('gamma', 30),
      row('beta', 35),
      row('alpha-inc', null),
      row('delta', 30),
      row('alpha', 30),
    ];
    expect(ranked(rows)[0]!.rows.map((r) => [r.rankLabel, r.system])).toEqual([
      ['1', 'beta'],
      ['=2', 'alpha'],
      ['=2', 'delta'],
      ['=2', 'gamma'],
      ['–', 'alpha-inc'],
      ['–', 'zeta'],
    ]);
  });

  it('gives each rouge metric its own board, in first-seen order', () => {
    const rows = [row('a', 10, 'rouge.1'), row('b', 20, 'rouge.0'), row('c', 40, 'rouge.1'), row('d', null)];
    expect(ranked(rows).map((b) => [b.board.title, b.rows.map((r) => [r.rankLabel, r.system])])).toEqual([
      [
        'GoR (ROUGE, rouge.1)',
        [
          ['1', 'c'],
          ['2', 'a'],
        ],
      ],
      [
        'GoR (ROUGE, rouge.0)',
        [
          ['1', 'b'],
          ['–', 'd'],
        ],
      ],
    ]);
  });

  it('keeps the ROUGE-L column, the ranking one, in a narrow terminal and names it in the heading', () => {
    const [block] = gorBlocks({ rows: [row('b', 10), row('a', 20)] }, ranked([row('b', 10), row('a', 20)]));
    expect([block!.heading, block!.label]).toEqual(['GoR (ROUGE), ranked by ROUGE-L %', 'rouge.0']);
    const text = renderText('Run', [block!], { width: 40 });
    expect(text).toContain('GoR (ROUGE), ranked by ROUGE-L % [rouge.0]');
    expect(
      text
        .split('\n')
        .find((l) => l.startsWith('rank'))
        ?.trim(),
    ).toBe('rank  system  summarizer       ROUGE-L %');
    expect(text).toContain('Not shown to fit 40 columns: strategy, ranker, ROUGE-1 %, ROUGE-2 %,');
  });
});

describe('gorReport JSON', () => {
  it('gives each board as a section, its rows ordered by mean with their family fields', () => {
    const [section] = ranked([row('b', 10), row('a', 20)]).map(sectionJson);
    expect(section!.rows.map((r) => [r.system, r.rank, r.rankLabel, r.score, r.rouge])).toEqual([
      ['a', 1, '1', 20, { rouge1: 80, rouge2: 5, rougeL: 20 }],
      ['b', 2, '2', 10, { rouge1: 90, rouge2: 5, rougeL: 10 }],
    ]);
    expect([section!.family, section!.metric, section!.label, section!.rankingMetric]).toEqual([
      'gor',
      'rouge',
      'rouge.0',
      'rougeL',
    ]);
    expect([gorReport.hasResults({ rows: [] }), gorReport.hasResults({ rows: [row('a', 1)] })]).toEqual([
      false,
      true,
    ]);
  });
});
