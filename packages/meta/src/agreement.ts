import { krippendorffAlpha, rmse, summaryLevelCorrelation } from '@precis/metrics';
import { OPINION_DIMENSION_IDS, type OpinionDimensionId } from '@precis/prompts';
import { type RatingsFile, readRatingsFile } from './ratings-file.js';

export interface PairwiseAgreement {
  raters: [number, number];
  // Over summaries both raters rated; null when they share none.
  rmse: number | null;
  // Summary-level (per product across its summaries, averaged, constant vectors skipped).
  spearman: number | null;
  kendall: number | null;
  products: number;
}

export interface RaterVsMean {
  rater: number;
  spearman: number | null;
  kendall: number | null;
  products: number;
}

export interface DimensionAgreement {
  alpha: { interval: number | null; ordinal: number | null; nominal: number | null };
  // Summaries (units) with at least two ratings, which alpha uses.
  units: number;
  pairwise: PairwiseAgreement[];
  raterVsMean: RaterVsMean[];
}

export interface AgreementReport {
  file: string;
  raters: number;
  products: number;
  producedBy: string;
  dimensions: Partial<Record<OpinionDimensionId, DimensionAgreement>>;
}

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);

export async function agreementFromRatingsFile(path: string): Promise<AgreementReport> {
  return agreementFromRatings(await readRatingsFile(path));
}

export function agreementFromRatings(file: RatingsFile): AgreementReport {
  const dimensions: Partial<Record<OpinionDimensionId, DimensionAgreement>> = {};
  for (const dim of OPINION_DIMENSION_IDS) {
    // Products that rate this dimension: rows[summary][rater].
    const groups = file.products.flatMap((p) => (p.ratings[dim] ? [p.ratings[dim]!] : []));
    if (groups.length === 0) continue;
    dimensions[dim] = dimensionAgreement(groups, file.raters);
  }
  return {
    file: file.file,
    raters: file.raters,
    products: file.products.length,
    producedBy:
      "Krippendorff's alpha over all summaries (units) pooled; RMSE over summaries both raters rated; Spearman/Kendall tau-b summary-level (per product, averaged, constant vectors skipped); rater vs the mean of all raters' available ratings",
    dimensions,
  };
}

type Rows = (number | null)[][];

function dimensionAgreement(groups: Rows[], raters: number): DimensionAgreement {
  // Reliability matrix data[rater][unit], units = all summaries of all products.
  const units = groups.flat();
  const data = Array.from({ length: raters }, (_, r) => units.map((row) => row[r] ?? null));
  const alpha = {
    interval: finite(krippendorffAlpha(data, 'interval')),
    ordinal: finite(krippendorffAlpha(data, 'ordinal')),
    nominal: finite(krippendorffAlpha(data, 'nominal')),
  };
  const pairable = units.filter((row) => row.filter((v) => v !== null).length >= 2).length;

  const pairwise: PairwiseAgreement[] = [];
  for (let i = 0; i < raters; i++) {
    for (let j = i + 1; j < raters; j++) {
      const a: number[] = [];
      const b: number[] = [];
      for (const row of units) {
        if (row[i] != null && row[j] != null) {
          a.push(row[i]!);
          b.push(row[j]!);
        }
      }
      const corr = summaryLevel(
        groups,
        (row) => row[i] ?? null,
        (row) => row[j] ?? null,
      );
      pairwise.push({ raters: [i, j], rmse: a.length ? finite(rmse(a, b)) : null, ...corr });
    }
  }
  const meanOf = (row: (number | null)[]): number | null => {
    const vs = row.filter((v): v is number => v !== null);
    return vs.length ? vs.reduce((s, v) => s + v, 0) / vs.length : null;
  };
  const raterVsMean: RaterVsMean[] = [];
  for (let r = 0; r < raters; r++) {
    raterVsMean.push({ rater: r, ...summaryLevel(groups, (row) => row[r] ?? null, meanOf) });
  }
  return { alpha, units: pairable, pairwise, raterVsMean };
}

// Per product, correlate x and y over the summaries where both are present; average.
function summaryLevel(
  groups: Rows[],
  x: (row: (number | null)[]) => number | null,
  y: (row: (number | null)[]) => number | null,
): { spearman: number | null; kendall: number | null; products: number } {
  const xs: number[][] = [];
  const ys: number[][] = [];
  for (const rows of groups) {
    const gx: number[] = [];
    const gy: number[] = [];
    for (const row of rows) {
      const a = x(row);
      const b = y(row);
      if (a === null || b === null) continue;
      gx.push(a);
      gy.push(b);
    }
    xs.push(gx);
    ys.push(gy);
  }
  const sp = summaryLevelCorrelation(xs, ys, 'spearman');
  const kd = summaryLevelCorrelation(xs, ys, 'kendall');
  return { spearman: finite(sp.value), kendall: finite(kd.value), products: sp.groupsUsed };
}
