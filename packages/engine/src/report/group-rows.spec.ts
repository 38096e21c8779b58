import { describe, expect, it } from '@jest/globals';
import { groupRows } from './group-rows.js';

describe('groupRows', () => {
  it("keeps the groups' first-appearance order and the rows' order within them", () => {
    const rows = [
      { system: 'a', metric: 'x' },
      { system: 'b', metric: 'y' },
      { system: 'c', metric: 'x' },
    ];
    expect(groupRows(rows, (r) => r.metric).map((g) => g.map((r) => r.system))).toEqual([['a', 'c'], ['b']]);
  });
});
