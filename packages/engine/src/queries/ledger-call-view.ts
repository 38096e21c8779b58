import { redactSecretLooking, splitReasoning } from '@precis/llm';

// One model call as a transcript shows it: the prompt, the raw reply and its answer split from
// its reasoning, with the ledger's figures. Plain JSON (dates as ISO text), so the CLI prints
// the same from the database and from the gateway.
export interface CallMessage {
  role: string;
  content: string;
}

export interface CallReply {
  // The answer without its reasoning, as the client read it (packages/llm splitReasoning).
  text: string;
  reasoning: string | null;
  finishReason: string | null;
}

// The call whose answer a cache hit replayed (same cache key, answered and stored).
export interface CallFill {
  id: string;
  runId: string | null;
  taskId: string | null;
  createdAt: string;
}

export interface LedgerCallView {
  id: string;
  taskId: string;
  // From the task id `<run>:<stage>:<system>:<document>:...`.
  stage: string;
  system: string;
  model: string;
  modelId: string;
  // chat | embedding
  kind: string;
  // ok | error | cached | sent (no answer recorded)
  status: string;
  cacheHit: boolean;
  // Calls the row accounts for (several samples answered together from the cache).
  calls: number;
  templateVersion: string | null;
  createdAt: string;
  latencyMs: number;
  attempts: number;
  error: string | null;
  notes: string[];
  tokensIn: number;
  tokensCached: number;
  tokensOut: number;
  tokensReasoning: number;
  costUsd: number;
  listCostUsd: number;
  // The prompt; an embedding call's inputs have role "input". A cache hit shows its filler's.
  messages: CallMessage[];
  // The request's other fields (model, temperature, max_tokens...).
  params: Record<string, unknown>;
  replies: CallReply[];
  // The provider's body as stored (embedding vectors shown by their length); a hit of several
  // cached samples: their bodies in sample order.
  response: unknown;
  cachedFrom: CallFill[];
}

// A ledger row as read by documentCalls (snake_case columns), and the fillers of a cache hit.
export interface LedgerRow {
  id: string;
  run_id: string | null;
  task_id: string;
  model: string;
  model_id: string;
  kind: string;
  status: string;
  cache_hit: boolean;
  calls: number | string;
  template_version: string | null;
  created_at: Date | string;
  latency_ms: number | string;
  attempts: number | string;
  error: string | null;
  notes: unknown;
  tokens_in: number | string;
  tokens_cached: number | string;
  tokens_out: number | string;
  tokens_reasoning: number | string;
  cost_usd: number | string;
  list_cost_usd: number | string;
  request: unknown;
  response: unknown;
}

export interface FillerRow {
  id: string;
  run_id: string | null;
  task_id: string | null;
  created_at: Date | string;
  request: unknown;
  response: unknown;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
// pg returns jsonb as objects; a driver that returns text is read as JSON.
const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);
const iso = (v: Date | string) => new Date(v).toISOString();

// The keys a cache hit's row names in request.cachedAs (one, or one per sample).
export function cachedKeys(request: unknown): string[] {
  const r = json(request);
  if (!isObj(r)) return [];
  const keys = r.cachedAs;
  if (typeof keys === 'string') return [keys];
  return Array.isArray(keys) ? keys.filter((k): k is string => typeof k === 'string') : [];
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((p) => (isObj(p) && typeof p.text === 'string' ? p.text : JSON.stringify(p))).join('');
  return content === null || content === undefined ? '' : JSON.stringify(content);
}

// The prompt of a request body, and its other fields (a secret-looking value masked).
export function requestParts(request: unknown): { messages: CallMessage[]; params: Record<string, unknown> } {
  const body = json(request);
  if (!isObj(body)) return { messages: [], params: {} };
  const { messages, input, ...rest } = body;
  const list: CallMessage[] = Array.isArray(messages)
    ? messages.map((m) => ({
        role: isObj(m) ? String(m.role ?? '') : '',
        content: isObj(m) ? contentText(m.content) : '',
      }))
    : Array.isArray(input)
      ? input.map((t) => ({ role: 'input', content: contentText(t) }))
      : [];
  const params = JSON.parse(redactSecretLooking(JSON.stringify(rest))) as Record<string, unknown>;
  return { messages: list, params };
}

// Each choice's answer and reasoning, split as the client split them. A <think> block that never
// closes is shown as reasoning (as a reply cut at its budget), not refused.
export function replyParts(response: unknown, model: string): CallReply[] {
  const body = json(response);
  if (!isObj(body) || !Array.isArray(body.choices)) return [];
  return [...body.choices]
    .sort((a, b) => Number(a?.index ?? 0) - Number(b?.index ?? 0))
    .map((c) => {
      const message = isObj(c) && isObj(c.message) ? c.message : {};
      const split = splitReasoning(contentText(message.content), message, true, model);
      const finish = isObj(c) && typeof c.finish_reason === 'string' ? c.finish_reason : null;
      return { text: split.text, reasoning: split.reasoning, finishReason: finish };
    });
}

// An embedding body without its vectors (thousands of numbers no one reads in a transcript).
function shownResponse(response: unknown): unknown {
  const body = json(response);
  if (!isObj(body) || !Array.isArray(body.data)) return body ?? null;
  return {
    ...body,
    data: body.data.map((d) =>
      isObj(d) && Array.isArray(d.embedding) ? { ...d, embedding: `<${d.embedding.length} numbers>` } : d,
    ),
  };
}

export function toCallView(row: LedgerRow, fillers: FillerRow[]): LedgerCallView {
  const parts = row.task_id.split(':');
  const asked = fillers[0]?.request ?? row.request;
  const answers = row.cache_hit ? fillers.map((f) => f.response) : [row.response];
  const notes = json(row.notes);
  return {
    id: row.id,
    taskId: row.task_id,
    stage: parts[1] ?? '',
    system: parts[2] ?? '',
    model: row.model,
    modelId: row.model_id,
    kind: row.kind,
    status: row.status,
    cacheHit: row.cache_hit,
    calls: Number(row.calls),
    templateVersion: row.template_version,
    createdAt: iso(row.created_at),
    latencyMs: Number(row.latency_ms),
    attempts: Number(row.attempts),
    error: row.error,
    notes: Array.isArray(notes) ? notes.map(String) : [],
    tokensIn: Number(row.tokens_in),
    tokensCached: Number(row.tokens_cached),
    tokensOut: Number(row.tokens_out),
    tokensReasoning: Number(row.tokens_reasoning),
    costUsd: Number(row.cost_usd),
    listCostUsd: Number(row.list_cost_usd),
    ...requestParts(row.cache_hit && fillers.length === 0 ? null : asked),
    replies: answers.flatMap((a) => replyParts(a, row.model)),
    response: answers.length > 1 ? answers.map(shownResponse) : shownResponse(answers[0] ?? null),
    cachedFrom: fillers.map((f) => ({
      id: f.id,
      runId: f.run_id,
      taskId: f.task_id,
      createdAt: iso(f.created_at),
    })),
  };
}
