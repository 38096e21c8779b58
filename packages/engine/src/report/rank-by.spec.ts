import { describe, expect, it } from '@jest/globals';
import { groupRows, rankBy } from './rank-by.js';

const row = (system: string, score: number | null, metric = 'm') => ({ system, score, metric });

describe('rankBy', () => {
  it('ranks scored rows best first, ties by system name, unscored rows last by name', () => {
    const rows = [row('c', 1), row('z', null), row('b', 3), row('a', 3), row('y', null)];
    expect(rankBy(rows, (r) => r.score).map((r) => [r.rank, r.system])).toEqual([
      [1, 'a'],
      [2, 'b'],
      [3, 'c'],
      [null, 'y'],
      [null, 'z'],
    ]);
  });

  it('ranks within each group, groups in the order they first appear', () => {
    const rows = [row('a', 1, 'rouge'), row('b', 5, 'judge'), row('c', 2, 'rouge'), row('d', null, 'judge')];
    const ranked = rankBy(
      rows,
      (r) => r.score,
      (r) => r.metric,
    );
    expect(ranked.map((r) => [r.metric, r.rank, r.system])).toEqual([
      ['rouge', 1, 'c'],
      ['rouge', 2, 'a'],
      ['judge', 1, 'b'],
      ['judge', null, 'd'],
    ]);
  });

  it('keeps every field of the row, rank first, and scores 0 as a score', () => {
    expect(rankBy([row('a', 0)], (r) => r.score)).toEqual([{ rank: 1, system: 'a', score: 0, metric: 'm' }]);
    expect(Object.keys(rankBy([row('a', 0)], (r) => r.score)[0]!)[0]).toBe('rank');
  });

  it("groupRows keeps the groups' first-appearance order and the rows' order within them", () => {
    const rows = [row('a', 1, 'x'), row('b', 2, 'y'), row('c', 3, 'x')];
    expect(groupRows(rows, (r) => r.metric).map((g) => g.map((r) => r.system))).toEqual([['a', 'c'], ['b']]);
  });
});
