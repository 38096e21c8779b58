import type { AgreementReport, CompareReport, CorrelationReport } from '@precis/meta';
import { formatTable } from '../../output.js';

const f = (v: number | null | undefined, digits = 3): string =>
  v === null || v === undefined ? '-' : v.toFixed(digits);

const ci = (v: [number, number] | null): string => (v ? `[${f(v[0])}, ${f(v[1])}]` : '-');

export function correlationText(r: CorrelationReport): string {
  const rows = Object.entries(r.dimensions).map(([dim, c]) => [
    dim,
    f(c.spearman),
    f(c.kendall),
    f(c.pearson),
    String(c.products),
    String(c.skipped),
    ...(r.level === 'system' ? [String(c.systems ?? '')] : []),
    ...(c.ci95 ? [ci(c.ci95.spearman), ci(c.ci95.kendall)] : []),
  ]);
  const headers = ['DIMENSION', 'SPEARMAN', 'KENDALL', 'PEARSON', 'PRODUCTS', 'SKIPPED'];
  if (r.level === 'system') headers.push('SYSTEMS');
  if (Object.values(r.dimensions).some((c) => c.ci95)) headers.push('SPEARMAN 95% CI', 'KENDALL 95% CI');
  return [
    formatTable(headers, rows),
    '',
    `dataset:  ${r.dataset}`,
    `metric:   ${r.producedBy}`,
    `level:    ${r.method}`,
  ].join('\n');
}

export function agreementText(r: AgreementReport): string {
  const main = Object.entries(r.dimensions).map(([dim, d]) => [
    dim,
    f(d!.alpha.interval),
    f(d!.alpha.ordinal),
    f(d!.alpha.nominal),
    String(d!.units),
  ]);
  const pairs = Object.entries(r.dimensions).flatMap(([dim, d]) =>
    d!.pairwise.map((p) => [dim, `${p.raters[0]}-${p.raters[1]}`, f(p.rmse), f(p.spearman), f(p.kendall)]),
  );
  const vsMean = Object.entries(r.dimensions).flatMap(([dim, d]) =>
    d!.raterVsMean.map((m) => [dim, String(m.rater), f(m.spearman), f(m.kendall)]),
  );
  return [
    `${r.file}: ${r.products} products, ${r.raters} raters`,
    '',
    formatTable(['DIMENSION', 'ALPHA INTERVAL', 'ALPHA ORDINAL', 'ALPHA NOMINAL', 'UNITS'], main),
    '',
    formatTable(['DIMENSION', 'RATERS', 'RMSE', 'SPEARMAN', 'KENDALL'], pairs),
    '',
    formatTable(['DIMENSION', 'RATER VS MEAN', 'SPEARMAN', 'KENDALL'], vsMean),
    '',
    r.producedBy,
  ].join('\n');
}

export function compareText(r: CompareReport): string {
  const rows = Object.entries(r.dimensions).map(([dim, c]) => [
    dim,
    `${f(c!.a.mean)} ±${f(c!.a.std)}`,
    `${f(c!.b.mean)} ±${f(c!.b.std)}`,
    String(c!.mannWhitney.u),
    f(c!.mannWhitney.pValue, 4),
    f(c!.welch.t),
    f(c!.welch.df, 1),
    f(c!.welch.pValue, 4),
  ]);
  const who = (side: CompareReport['a']) =>
    `${side.file}${side.judges.length ? ` (${side.judges.join(', ')})` : ''}`;
  return [
    formatTable(['DIMENSION', 'A MEAN', 'B MEAN', 'MW U', 'MW P', 'WELCH T', 'DF', 'WELCH P'], rows),
    '',
    `a: ${who(r.a)}`,
    `b: ${who(r.b)}`,
    r.producedBy,
  ].join('\n');
}
