import type { UsageSoFar } from '../queries/run-queries.js';

// ' (4096 cached)': a share only where a model reported one, so plain models read as before.
const share = (n: number, what: string) => (n ? ` (${n} ${what})` : '');

// What a run's model calls took, as `precis runs show` prints it, e.g. '12 model calls (3 from
// cache), 9000 tokens in (4096 cached), 1200 out (800 reasoning), $0.0123'.
export function describeUsage(u: UsageSoFar): string {
  const cache = `${u.cacheHits} from cache${u.repeated ? `, ${u.repeated} repeated after faults` : ''}`;
  const tokensIn = `${u.tokensIn} tokens in${share(u.tokensCached, 'cached')}`;
  const tokensOut = `${u.tokensOut} out${share(u.tokensReasoning, 'reasoning')}`;
  return `${u.calls} model calls (${cache}), ${tokensIn}, ${tokensOut}, $${u.costUsd.toFixed(4)}`;
}
