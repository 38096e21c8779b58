import { describe, expect, it } from '@jest/globals';
import { type Board, boardBlock, rankBoard, sectionJson } from './leaderboard-board.js';

type Row = { system: string; work: typeof complete; distance: number; score: string };
const complete = { summaries: { expected: 6, failed: 0 }, judgments: { expected: 6, failed: 0 } };
const row = (system: string, distance: number): Row => ({ system, work: complete, distance, score: 'mine' });

const board = (over: Partial<Board<Row>> = {}): Board<Row> => ({
  key: 'words.0',
  family: 'words',
  metric: 'words',
  label: 'words.0',
  title: 'Words off target',
  ranking: { metric: 'words', column: 'distance', higherIsBetter: false },
  rows: [row('far', 9), row('near', 1)],
  score: (r) => r.distance,
  fields: (r) => ({ score: r.score, distance: r.distance }),
  columns: [{ header: 'distance', show: (r) => String(r.distance) }],
  notes: ['Mean words off target.'],
  ...over,
});
// Six documents each, near always 8 words closer.
const values = new Map([
  [
    'words',
    new Map([
      ['far', new Map([0, 1, 2, 3, 4, 5].map((d) => [`d${d}`, 9 + (d % 2)]))],
      ['near', new Map([0, 1, 2, 3, 4, 5].map((d) => [`d${d}`, 1 + (d % 2)]))],
    ]),
  ],
]);
const opts = { alpha: 0.05, resamples: 1000, seed: 1 };

describe('a ranked board', () => {
  it('ranks lower first when lower is better and says so in its rule', () => {
    const ranked = rankBoard(board(), values, opts);
    expect(ranked.rows.map((r) => [r.system, r.rankLabel])).toEqual([
      ['near', '1'],
      ['far', '2'],
    ]);
    expect(ranked.notes).toEqual([
      'Mean words off target.',
      'Ranked by distance, lower is better: a rank is 1 + the systems significantly better on it (paired bootstrap over the documents both scored, 1000 resamples, Holm-corrected, alpha 0.05; none tested on fewer than 5 documents); "=" marks a rank several systems share; a row whose work failed has none.',
    ]);
  });

  it("keeps the engine's fields when a family's field has the same name", () => {
    const [near] = sectionJson(rankBoard(board(), values, opts)).rows;
    expect(near).toEqual({
      system: 'near',
      rank: 1,
      rankLabel: '1',
      score: 1,
      ciLow: null,
      ciHigh: null,
      work: complete,
      status: 'complete',
      usage: { calls: 0, tokensIn: 0, tokensOut: 0, tokensCached: 0, tokensReasoning: 0, costUsd: 0 },
      distance: 1,
    });
  });

  it('renders rank, system, then its columns, the ranking one pinned and named in the heading', () => {
    const block = boardBlock(rankBoard(board(), values, opts));
    expect([block.key, block.heading, block.label]).toEqual([
      'words.0',
      'Words off target, ranked by distance',
      'words.0',
    ]);
    expect([block.table!.headers, block.table!.pinned]).toEqual([['rank', 'system', 'distance'], [2]]);
  });

  it('refuses a board whose columns do not show its ranking metric', () => {
    expect(() => boardBlock(rankBoard(board({ columns: [] }), values, opts))).toThrow(
      'leaderboard words.0: no column "distance" shows its ranking metric',
    );
  });
});
