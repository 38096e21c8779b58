// The engine with the built-in benchmark families, for tests that run books and opinion
// benchmarks end to end.
import { type FullRunReport, renderRunReport, type SectionJson } from '@precis/engine';
import { builtInFamilies as shippedFamilies } from '@precis/families';
import { booookScoreReport, type RunReport } from '@precis/family-books';
import { type DimensionReport, dimensionReport } from '@precis/family-opinion';

export * from '@precis/engine';
export * from '@precis/family-books';
export * from '@precis/family-opinion';

// The registry every service loads.
export const builtInFamilies = shippedFamilies();

// The books and opinion parts of a loaded run report.
export function booookScorePart(r: FullRunReport): RunReport {
  return r.parts.find((p) => p.section === booookScoreReport)!.part as RunReport;
}

export function dimensionPart(r: FullRunReport): DimensionReport {
  return r.parts.find((p) => p.section === dimensionReport)!.part as DimensionReport;
}

// The rows of a report's leaderboards of one family, as its JSON gives them (sections[].rows),
// typed as the family's rows with their ranks.
export function sectionRows<R>(
  r: FullRunReport,
  family: string,
): (R & { rank: number | null; rankLabel: string })[] {
  const sections = JSON.parse(renderRunReport(r, 'json')).sections as SectionJson[];
  return sections.filter((s) => s.family === family).flatMap((s) => s.rows) as unknown as (R & {
    rank: number | null;
    rankLabel: string;
  })[];
}
