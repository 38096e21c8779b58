// The engine with the built-in benchmark families, for tests that run books and opinion
// benchmarks end to end.
import type { FullRunReport } from '@precis/engine';
import { booookScoreReport, type RunReport } from '@precis/family-books';
import { type DimensionReport, dimensionReport } from '@precis/family-opinion';
import { builtInFamilies as serviceFamilies } from '@precis/service';

export * from '@precis/engine';
export * from '@precis/family-books';
export * from '@precis/family-opinion';

// The registry every service loads.
export const builtInFamilies = serviceFamilies();

// The books and opinion parts of a loaded run report.
export function booookScorePart(r: FullRunReport): RunReport {
  return r.parts.find((p) => p.section === booookScoreReport)!.part as RunReport;
}

export function dimensionPart(r: FullRunReport): DimensionReport {
  return r.parts.find((p) => p.section === dimensionReport)!.part as DimensionReport;
}
