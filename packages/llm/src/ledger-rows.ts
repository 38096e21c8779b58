import { type LlmCallRecord, statusOf } from './store/llm-store.js';

// How ledger records become llm_calls rows: one JSON parameter holding the rows, expanded by
// jsonb_to_recordset (the LLM store's inserts).
// A row whose id is already there (a call's 'sent' row) is settled: updated, not added.
const COLUMNS = [
  ['id', 'uuid'],
  ['status', 'text'],
  ['run_id', 'uuid'],
  ['task_id', 'text'],
  ['model', 'text'],
  ['model_id', 'text'],
  ['kind', 'text'],
  ['cache_key', 'text'],
  ['cache_hit', 'boolean'],
  ['batched', 'boolean'],
  ['template_version', 'text'],
  ['request', 'jsonb'],
  ['response', 'jsonb'],
  ['tokens_in', 'integer'],
  ['tokens_out', 'integer'],
  ['tokens_cached', 'integer'],
  ['tokens_reasoning', 'integer'],
  ['notes', 'jsonb'],
  ['latency_ms', 'integer'],
  ['cost_usd', 'numeric'],
  ['list_cost_usd', 'numeric'],
  ['attempts', 'integer'],
  ['error', 'text'],
  ['calls', 'integer'],
] as const;

const NAMES = COLUMNS.map(([name]) => name).join(', ');
const VALUES = COLUMNS.map(([name]) => (name === 'id' ? 'coalesce(id, gen_random_uuid())' : name)).join(', ');
const RECORD_TYPE = COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ');
// What settling changes; the key and the run stay as the 'sent' row has them.
const SETTLED = [
  'status',
  'request',
  'cache_hit',
  'response',
  'tokens_in',
  'tokens_out',
  'tokens_cached',
  'tokens_reasoning',
  'notes',
  'latency_ms',
  'cost_usd',
  'list_cost_usd',
  'attempts',
  'error',
  'calls',
]
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(', ');

// `INSERT INTO llm_calls ... ` of the rows in `rowsJson`, an SQL expression of type jsonb holding
// ledgerRowsJson(...)'s array (a parameter such as `$2::jsonb`). Usable as a data-modifying CTE.
// Rows are taken in run order: the llm_calls trigger that keeps each run's committed cost
// (run_costs) then locks those rows in the same order in every statement, so two never deadlock.
export function ledgerInsertSql(rowsJson: string): string {
  return `INSERT INTO llm_calls (${NAMES}) SELECT ${VALUES} FROM jsonb_to_recordset(${rowsJson}) AS r(${RECORD_TYPE}) ORDER BY run_id ON CONFLICT (id) DO UPDATE SET ${SETTLED}`;
}

// The records as the JSON text ledgerInsertSql expands.
export function ledgerRowsJson(records: readonly LlmCallRecord[]): string {
  return JSON.stringify(records.map(toRow));
}

function toRow(c: LlmCallRecord): Record<string, unknown> {
  const status = statusOf(c);
  return {
    id: c.id ?? null,
    status,
    run_id: c.runId,
    task_id: c.taskId,
    model: c.model,
    model_id: c.modelId,
    kind: c.kind,
    cache_key: c.cacheKey,
    cache_hit: c.cacheHit,
    batched: c.batched ?? false,
    template_version: c.templateVersion,
    // The request body is written when the call settles, not in its 'sent' row: serializing and
    // storing every prompt before it goes out delayed a burst's first request by ~30 ms.
    request: status === 'sent' ? {} : c.request,
    response: c.response,
    tokens_in: c.tokensIn,
    tokens_out: c.tokensOut,
    tokens_cached: c.tokensCached ?? 0,
    tokens_reasoning: c.tokensReasoning ?? 0,
    notes: c.notes?.length ? c.notes : null,
    latency_ms: c.latencyMs,
    // An exact decimal string: numeric parses its text, no float in between.
    cost_usd: c.costUsd,
    list_cost_usd: c.listCostUsd ?? c.costUsd,
    attempts: c.attempts,
    error: c.error,
    calls: c.calls,
  };
}
