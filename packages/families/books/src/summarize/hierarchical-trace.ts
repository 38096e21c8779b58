import type { SummaryTaskStep, TraceGroup } from '@precis/engine/family';

// The step artifact removal runs as, after the last merge (strategies/hierarchical.ts).
const CLEAN_KEY = 'h/clean';

// A hierarchical run's trace is a tree by level (which of the level below each merge took),
// with artifact removal last. Read from the stored step alone, so older runs print the same.
export function hierarchicalTraceGroup(step: SummaryTaskStep): TraceGroup {
  if (step.key === CLEAN_KEY) return { rank: Number.POSITIVE_INFINITY, heading: 'artifact removal' };
  const level = step.level ?? 0;
  return {
    rank: level,
    heading: `level ${level}${level === 0 ? ' (chunk summaries)' : ''}`,
    inputsFrom: `level ${level - 1}`,
  };
}
