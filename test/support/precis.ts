// The engine with the built-in benchmark families, for tests that run books and opinion
// benchmarks end to end.
import { FamilyRegistry, type FullRunReport } from '@precis/engine';
import { booksFamily, booookScoreReport, type RunReport } from '@precis/family-books';
import { type DimensionReport, dimensionReport, opinionFamily } from '@precis/family-opinion';

export * from '@precis/engine';
export * from '@precis/family-books';
export * from '@precis/family-opinion';

export const builtInFamilies = new FamilyRegistry([booksFamily, opinionFamily]);

// The books and opinion parts of a loaded run report.
export function booookScorePart(r: FullRunReport): RunReport {
  return r.parts.find((p) => p.section === booookScoreReport)!.part as RunReport;
}

export function dimensionPart(r: FullRunReport): DimensionReport {
  return r.parts.find((p) => p.section === dimensionReport)!.part as DimensionReport;
}
