import { describe, expect, it } from '@jest/globals';
import { compareRanks, type StepOrder, sortSteps } from './step-order.js';

// A family-neutral strategy: numbered drafts by number, then the one join.
const draftsThenJoin: StepOrder = (key) =>
  key === 'join' ? [Number.POSITIVE_INFINITY] : key.startsWith('draft-') ? [Number(key.slice(6))] : [];

const keys = (steps: { key: string }[]) => steps.map((s) => s.key);
const of = (...names: string[]) => names.map((key) => ({ key }));

describe('sortSteps', () => {
  it('keeps the planned order when the strategy ranks no step', () => {
    const steps = of('simulate', 'graph', 'rank', 'summary');
    expect(keys(sortSteps(steps, (s) => s.key))).toEqual(['simulate', 'graph', 'rank', 'summary']);
  });

  it("sorts by the strategy's rank, numbers as numbers", () => {
    const steps = of('join', 'draft-10', 'draft-2', 'draft-1');
    expect(keys(sortSteps(steps, (s) => s.key, draftsThenJoin))).toEqual([
      'draft-1',
      'draft-2',
      'draft-10',
      'join',
    ]);
  });

  it('keeps steps of equal rank in the planned order (a stable sort)', () => {
    const steps = of('b', 'draft-1', 'a', 'c');
    expect(keys(sortSteps(steps, (s) => s.key, draftsThenJoin))).toEqual(['b', 'a', 'c', 'draft-1']);
  });

  it('sorts a copy, leaving the input as it was', () => {
    const steps = of('draft-10', 'draft-9');
    expect(keys(sortSteps(steps, (s) => s.key, draftsThenJoin))).toEqual(['draft-9', 'draft-10']);
    expect(keys(steps)).toEqual(['draft-10', 'draft-9']);
  });
});

describe('compareRanks', () => {
  it('compares entry by entry, a missing entry as 0 and a non-number as equal', () => {
    expect(compareRanks([0, 2], [0, 10])).toBeLessThan(0);
    expect(compareRanks([1], [0, 5])).toBeGreaterThan(0);
    expect(compareRanks([], [0, 0])).toBe(0);
    expect(compareRanks([Number.NaN, 1], [3, 2])).toBeLessThan(0);
  });
});
