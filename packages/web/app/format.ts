import type { RunUsage } from './api-schema';

// Display helpers shared by the pages.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

export function formatUsd(usd: number | null | undefined): string {
  if (usd === null || usd === undefined) return 'n/a';
  // Small runs cost fractions of a cent: keep enough digits to tell them apart.
  return `$${usd.toFixed(usd !== 0 && Math.abs(usd) < 1 ? 4 : 2)}`;
}

export function formatNumber(x: number | null | undefined, digits = 4): string {
  if (x === null || x === undefined || Number.isNaN(x)) return 'n/a';
  return Number.isInteger(x) ? String(x) : x.toFixed(digits);
}

// Compact number for chart labels: at most 3 decimals, no trailing zeros.
export function formatShort(x: number): string {
  return String(Number(x.toFixed(Math.abs(x) >= 100 ? 1 : 3)));
}

export const OPEN_STATUSES = new Set(['pending', 'running']);
export const isOpen = (status: string): boolean => OPEN_STATUSES.has(status);

// ' (4096 cached)': a share only where a model reported one.
const share = (n: number, what: string) => (n ? ` (${n} ${what})` : '');

// A run's tokens, e.g. '9000 in (4096 cached), 1200 out (800 reasoning)'.
export function formatTokens(u: RunUsage): string {
  return `${u.tokensIn} in${share(u.tokensCached, 'cached')}, ${u.tokensOut} out${share(u.tokensReasoning, 'reasoning')}`;
}

// A run's model calls, e.g. '12 (3 from cache, 1 repeated after faults)'.
// '840 calls, $0.0335 ($0.0335 less than online; 15 sent again)'.
export function formatBatches(b: NonNullable<RunUsage['batch']>): string {
  const again = b.resent ? `; ${b.resent} sent again` : '';
  return `${b.calls} calls, ${formatUsd(b.costUsd)} (${formatUsd(b.savedUsd)} less than online${again})`;
}

export function formatCalls(u: RunUsage): string {
  const repeated = u.repeated ? `, ${u.repeated} repeated after faults` : '';
  return `${u.calls} (${u.cacheHits} from cache${repeated})`;
}

// Chart ticks in plain digits (10, 20, 100, 0.005, 12,000), never e-notation: d3's '~g' with the
// precision a scale picks reads 100 as 1e+2.
const tickDigits = (x: number) =>
  x === 0 || Math.abs(x) >= 1 ? 2 : Math.min(12, 2 - Math.floor(Math.log10(Math.abs(x))));

export const formatTick = (x: number): string =>
  new Intl.NumberFormat('en-US', { maximumFractionDigits: tickDigits(x) }).format(x);

// Dollars on a cost axis: $0, $0.005, $0.01, $1,200.
export const formatUsdTick = (x: number): string => (x < 0 ? `-$${formatTick(-x)}` : `$${formatTick(x)}`);

// Counts (errors, tokens): whole numbers only; a tick between two whole numbers stays unlabelled.
export const formatCountTick = (x: number): string => (Number.isInteger(x) ? formatTick(x) : '');
