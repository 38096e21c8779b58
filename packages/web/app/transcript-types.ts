// The JSON of the transcript routes (GET /api/v1/runs/{id}/traces/{document}/calls and
// GET /api/v1/runs/{id}/facts), mirrored for the browser build like api-types.ts.

export interface CallMessage {
  // system, user, assistant; "input" for an embedding call's inputs.
  role: string;
  content: string;
}

export interface CallReply {
  // The answer without its reasoning.
  text: string;
  reasoning: string | null;
  finishReason: string | null;
}

export interface LedgerCall {
  id: string;
  taskId: string;
  stage: string;
  system: string;
  model: string;
  modelId: string;
  kind: string;
  // ok, error, cached, sent (no answer recorded)
  status: string;
  cacheHit: boolean;
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
  // The prompt; a cache hit's is that of the call that filled its entry.
  messages: CallMessage[];
  params: Record<string, unknown>;
  replies: CallReply[];
  // The provider's raw body.
  response: unknown;
  cachedFrom: { id: string; runId: string | null; taskId: string | null; createdAt: string }[];
}

export interface CallPage {
  document: { id: string; externalId: string };
  total: number;
  calls: LedgerCall[];
  nextPageToken: string;
}

export interface ModelEntry {
  name: string;
  kind: string;
  provider: string;
  modelId: string;
  baseURL: string;
  // The variable's name, never its value.
  apiKeyEnv: string | null;
  contextWindow: number;
  maxConcurrency: number;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  pricePer1MInput: string;
  pricePer1MOutput: string;
  pricePer1MCachedInput: string;
  timeoutMs: number;
  maxRetries: number;
  defaultMaxTokens: number;
  capabilities: Record<string, unknown>;
  reasoning: { enabled: boolean; effort: string | null };
  thinking: boolean | null;
}

export interface RunFacts {
  spec: Record<string, unknown>;
  seed: number;
  // The setting that named the server's registry (e.g. PRECIS_MODELS); null without one.
  registry: string | null;
  models: { name: string; uses: string[]; calls: number; modelIds: string[]; entry: ModelEntry | null }[];
  templates: {
    id: string;
    family: string;
    version: string;
    description: string;
    overridden: boolean;
    system: string | null;
    user: string;
  }[];
  ledgerVersions: { version: string; calls: number }[];
}
