import { PermanentModelError } from '../errors.js';
import type { ModelSpec } from '../registry/model-spec.js';

// Endpoints and models that refused this client for good. After a 401/403 the endpoint is
// unusable with that key (every model behind it); after a 404 only that model is. Later and
// queued calls then fail with the same error without sending anything.
export class UnusableEndpoints {
  private readonly refused = new Map<string, PermanentModelError>();

  note(spec: ModelSpec, err: PermanentModelError): void {
    if (err.status === 401 || err.status === 403) this.refused.set(endpointKey(spec), err);
    else if (err.status === 404) this.refused.set(modelKey(spec), err);
  }

  // A fresh copy of the refusal that makes `spec` unusable, or null.
  check(spec: ModelSpec): PermanentModelError | null {
    const err = this.refused.get(endpointKey(spec)) ?? this.refused.get(modelKey(spec));
    if (!err) return null;
    return new PermanentModelError(spec.name, err.baseURL, err.status, err.serverMessage, err.message);
  }
}

// The key variable's name stands for the key (one environment per client).
const endpointKey = (spec: ModelSpec) => `${spec.baseURL}\u0000${spec.apiKeyEnv ?? ''}`;
const modelKey = (spec: ModelSpec) => `${spec.baseURL}\u0000${spec.apiKeyEnv ?? ''}\u0000${spec.modelId}`;
