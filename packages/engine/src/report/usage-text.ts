import type { UsageSoFar } from '../queries/run-queries.js';

// ' (4096 cached)': a share only where a model reported one, so plain models read as before.
const share = (n: number, what: string) => (n ? ` (${n} ${what})` : '');

// '$0.0675 spent (+$0.2500 reserved in flight)': the spent figure only grows; what calls not
// settled yet reserved is said apart (left 'sent' by a stopped process: "never settled").
export function costText(u: Pick<UsageSoFar, 'costUsd' | 'reservedUsd'>, inFlight = true): string {
  if (!u.reservedUsd) return `$${u.costUsd.toFixed(4)}`;
  const where = inFlight ? 'in flight' : 'by calls never settled';
  return `$${u.costUsd.toFixed(4)} spent (+$${u.reservedUsd.toFixed(4)} reserved ${where})`;
}

// What a run's model calls took, as `precis runs show` prints it, e.g. '12 model calls (3 from
// cache), 9000 tokens in (4096 cached), 1200 out (800 reasoning), $0.0123'.
export function describeUsage(u: UsageSoFar, inFlight = true): string {
  const cache = `${u.cacheHits} from cache${u.repeated ? `, ${u.repeated} repeated after faults` : ''}`;
  const tokensIn = `${u.tokensIn} tokens in${share(u.tokensCached, 'cached')}`;
  const tokensOut = `${u.tokensOut} out${share(u.tokensReasoning, 'reasoning')}`;
  return `${u.calls} model calls (${cache}), ${tokensIn}, ${tokensOut}, ${costText(u, inFlight)}${batchText(u)}`;
}

// '; 420 through provider batches ($0.0335, $0.0335 less than online; 42 sent again after their
// batch expired or failed them)', for runs that used them.
export function batchText(u: Partial<Pick<UsageSoFar, 'batch'>>): string {
  if (!u.batch?.calls) return '';
  const b = u.batch;
  const again = b.resent ? `; ${b.resent} sent again after their batch expired or failed them` : '';
  return `; ${b.calls} through provider batches ($${b.costUsd.toFixed(4)}, $${b.savedUsd.toFixed(4)} less than online${again})`;
}
