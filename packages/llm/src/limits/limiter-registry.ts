import type { ModelSpec } from '../registry/model-spec.js';
import { EndpointLimiter } from './endpoint-limiter.js';
import type { SharedLimits } from './pg-shared-limits.js';

// Limiters keyed by model name + endpoint, so every LlmClient in the process shares one budget
// per model; a later registry with new limits for the same model reconfigures it in place.
export class LimiterRegistry {
  private readonly limiters = new Map<string, EndpointLimiter>();

  // shared: limits held for the whole cluster on top of this process's (services pass
  // PgSharedLimits; embedded runs have none).
  constructor(private readonly shared?: SharedLimits) {}

  for(spec: ModelSpec): EndpointLimiter {
    const key = `${spec.name}\u0000${spec.baseURL}\u0000${spec.modelId}`;
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new EndpointLimiter(spec, this.shared);
      this.limiters.set(key, limiter);
    } else {
      limiter.configure(spec);
    }
    return limiter;
  }

  // Hands back the cluster-wide slots kept for reuse; call before the database closes.
  async close(): Promise<void> {
    await this.shared?.close();
  }
}

let processWide: LimiterRegistry | null = null;

export function processLimiters(): LimiterRegistry {
  processWide ??= new LimiterRegistry();
  return processWide;
}
