import { usageColumns } from '../client/call-records.js';
import { parseChatBody } from '../client/parse-response.js';
import { chatCostUnits, formatCost } from '../cost.js';
import { batchCostUnits } from '../registry/batch-settings.js';
import type { ModelSpec } from '../registry/model-spec.js';
import type { AnsweredLedger } from './batch-settle.store.js';

// A batch answer's ledger columns: the reply as the cache serves it, its tokens, and its cost at
// the batch price beside the online one (the batch price is its list cost too: leaderboards of a
// batch run show what its systems cost there). A reply an online call would not accept (no choices,
// cut at its output budget) throws: the call fails instead of being cached.
export function batchAnswerPricer(spec: ModelSpec): (body: unknown) => AnsweredLedger {
  if (!spec.batch) throw new Error(`model "${spec.name}" has no registry batch settings`);
  const settings = spec.batch;
  return (body) => {
    const parsed = parseChatBody(body, spec.name);
    if (parsed.finishReasons.includes('length'))
      throw new Error('the reply was cut at its output budget (finish_reason length)');
    const online = chatCostUnits(parsed.usage, spec);
    return {
      response: JSON.parse(JSON.stringify(body)) as Record<string, unknown>,
      ...usageColumns(parsed.usage),
      costUsd: formatCost(batchCostUnits(online, settings)),
      onlineCostUsd: formatCost(online),
    };
  };
}
