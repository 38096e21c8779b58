// A strategy's rank of one of its step keys (Strategy.stepOrder): steps sort by rank, compared
// entry by entry, a missing entry counting as 0 and an entry that is not a number as equal.
export type StepOrder = (key: string) => readonly number[];

// A comparator of ranks for Array.prototype.sort (stable since ES2019).
export function compareRanks(x: readonly number[], y: readonly number[]): number {
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return 0;
}

// A copy of steps in the order they ran: by the strategy's rank of each step's key when it
// gives one, else (and among equal ranks) in the order given, which is the planned order.
export function sortSteps<T>(steps: readonly T[], keyOf: (step: T) => string, order?: StepOrder): T[] {
  if (!order) return [...steps];
  return steps
    .map((step) => ({ step, rank: order(keyOf(step)) }))
    .sort((a, b) => compareRanks(a.rank, b.rank))
    .map((r) => r.step);
}
