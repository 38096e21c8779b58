import type { LlmCallRecord } from './store/llm-store.js';

// How ledger records become llm_calls rows: one JSON parameter holding the rows, expanded by
// jsonb_to_recordset. Shared by the LLM store's own inserts and by statements that write a
// task's ledger rows together with its result (see DeferredLedger), so the column list exists once.
const COLUMNS = [
  ['run_id', 'uuid'],
  ['task_id', 'text'],
  ['model', 'text'],
  ['model_id', 'text'],
  ['kind', 'text'],
  ['cache_key', 'text'],
  ['cache_hit', 'boolean'],
  ['template_version', 'text'],
  ['request', 'jsonb'],
  ['response', 'jsonb'],
  ['tokens_in', 'integer'],
  ['tokens_out', 'integer'],
  ['latency_ms', 'integer'],
  ['cost_usd', 'numeric'],
  ['attempts', 'integer'],
  ['error', 'text'],
  ['calls', 'integer'],
] as const;

const NAMES = COLUMNS.map(([name]) => name).join(', ');
const RECORD_TYPE = COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ');

// `INSERT INTO llm_calls ... ` of the rows in `rowsJson`, an SQL expression of type jsonb holding
// ledgerRowsJson(...)'s array (a parameter such as `$2::jsonb`). Usable as a data-modifying CTE.
export function ledgerInsertSql(rowsJson: string): string {
  return `INSERT INTO llm_calls (${NAMES}) SELECT ${NAMES} FROM jsonb_to_recordset(${rowsJson}) AS r(${RECORD_TYPE})`;
}

// The records as the JSON text ledgerInsertSql expands.
export function ledgerRowsJson(records: readonly LlmCallRecord[]): string {
  return JSON.stringify(records.map(toRow));
}

function toRow(c: LlmCallRecord): Record<string, unknown> {
  return {
    run_id: c.runId,
    task_id: c.taskId,
    model: c.model,
    model_id: c.modelId,
    kind: c.kind,
    cache_key: c.cacheKey,
    cache_hit: c.cacheHit,
    template_version: c.templateVersion,
    request: c.request,
    response: c.response,
    tokens_in: c.tokensIn,
    tokens_out: c.tokensOut,
    latency_ms: c.latencyMs,
    // An exact decimal string: numeric parses its text, no float in between.
    cost_usd: c.costUsd,
    attempts: c.attempts,
    error: c.error,
    calls: c.calls,
  };
}
