import { formatCost, parseCost } from '../cost.js';
import { LlmHttpError, PermanentModelError } from '../errors.js';
import { batchCostUnits } from '../registry/batch-settings.js';
import type { ModelSpec } from '../registry/model-spec.js';
import type { LlmCallRecord } from '../store/llm-store.js';
import type { ParkedCall, ParkOutcome } from './batch.store.js';
import type { ActiveBatchScope } from './batch-scope.js';
import { CallParkedError } from './batch-scope.js';
import { isTransientStatus } from './provider-batch.js';

// The key of a model's batches: one batch file holds calls to one model of one account.
export function batchEndpointKey(spec: ModelSpec): string {
  return `${spec.baseURL} ${spec.modelId} ${spec.apiKeyEnv ?? ''}`;
}

// In a task's batch scope, a call to a model with batches enabled waits for the model's next
// batch: its 'sent' row (`sent`, priced online) is written at the batch price with the park
// (CostLimitError when over the run's limit) and the work ends with CallParkedError. Returns when
// the call is to go out online (it expired in a batch, with onExpiry online); a call that failed
// in its batch throws as it would have online.
export async function parkInBatch(
  park: (call: ParkedCall) => Promise<ParkOutcome>,
  scope: ActiveBatchScope,
  spec: ModelSpec,
  sent: LlmCallRecord,
): Promise<void> {
  if (!spec.batch) return;
  const row = {
    ...sent,
    batched: true,
    costUsd: formatCost(batchCostUnits(parseCost(sent.costUsd), spec.batch)),
  };
  const call = {
    cacheKey: sent.cacheKey,
    endpoint: batchEndpointKey(spec),
    model: spec.name,
    request: sent.request,
  };
  const out = await scope.park(sent.cacheKey, () =>
    park({ ...call, taskId: scope.taskId, runId: sent.runId, sent: row }),
  );
  if (out.parked) throw new CallParkedError(scope.taskId, [sent.cacheKey]);
  if (out.expired) return;
  if (!isTransientStatus(out.status))
    throw new PermanentModelError(spec.name, spec.baseURL, out.status, out.error);
  throw new LlmHttpError(`model "${spec.name}" failed ${out.error}`, spec.name, out.status ?? 0);
}
