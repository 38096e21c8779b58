import type { FakeBatchOptions, FakeBatchStats } from './batches.js';
// Public types of the fake OpenAI-compatible server.
import type { FakeProviderProfile } from './profiles.js';

export interface FakeChatMessage {
  role: string;
  content: string;
}

// What a reply function sees: the request as the server parsed it.
export interface FakeReplyContext {
  model: string;
  messages: FakeChatMessage[];
  // Text of the last user message ('' when there is none).
  lastUser: string;
  // Index of the choice being produced (0..n-1).
  choiceIndex: number;
  // Zero-based count of chat requests the server has answered before this one.
  requestIndex: number;
  body: Record<string, unknown>;
}

export interface FakeTokenLogprob {
  token: string;
  logprob: number;
  top?: { token: string; logprob: number }[];
}

// A reply may fix the first tokens' logprobs (e.g. a judge answering "Yes" with p=0.8);
// tokens without fixed values get deterministic synthetic logprobs.
export interface FakeReplyObject {
  content: string;
  finishReason?: 'stop' | 'length' | 'content_filter';
  logprobs?: FakeTokenLogprob[];
}

export type FakeReply = string | FakeReplyObject;
export type FakeReplySource = FakeReply | ((ctx: FakeReplyContext) => FakeReply);

export interface FakeRule {
  // Exact model id, or a RegExp tested against it.
  model?: string | RegExp;
  // Tested against the concatenated message contents (role: content lines).
  match?: RegExp;
  reply: FakeReplySource;
  // Extra latency for requests this rule answers.
  latencyMs?: number;
}

export type FakeFaultKind =
  | 'rate-limit'
  | 'server-error'
  | 'unavailable'
  | 'hang'
  | 'truncate'
  | 'non-json'
  | 'status';

export interface FakeFault {
  kind: FakeFaultKind;
  // For rate-limit: the Retry-After header in seconds (integer or fractional) ...
  retryAfterSeconds?: number;
  // ... and/or OpenAI's retry-after-ms header.
  retryAfterMs?: number;
  // For status: the HTTP status answered at once (e.g. 400, 403, 422) and its error message.
  status?: number;
  message?: string;
}

export interface FakeFaultFilter {
  path?: '/v1/chat/completions' | '/v1/embeddings';
  model?: string;
}

export interface FakeRandomFaults {
  // Probability (0..1) that a request (matching the filter) gets a fault.
  probability: number;
  // Seed of the deterministic RNG that draws faults.
  seed?: number;
  // Fault kinds drawn uniformly; default: rate-limit, server-error, unavailable.
  kinds?: FakeFault[];
  filter?: FakeFaultFilter;
}

export interface FakeLlmServerOptions {
  // 0 (default) picks a free port; always bound to 127.0.0.1.
  port?: number;
  host?: string;
  // Time each request spends "generating" while holding a capacity slot, on the server's own
  // clock: from its arrival (or from when a slot was freed for it) to its answer.
  latencyMs?: number;
  // Requests processed at once; further requests wait in a FIFO queue inside the server.
  capacity?: number;
  // Default reply text (overrides the echo reply).
  reply?: string;
  rules?: FakeRule[];
  // Fault drawn at random per request with a seeded RNG.
  randomFaults?: FakeRandomFaults;
  // When set, every request must carry `Authorization: Bearer <apiKey>` (else 401).
  apiKey?: string;
  // Dimension of embedding vectors unless the request sets `dimensions`.
  embeddingDim?: number;
  // Model ids listed by GET /v1/models (models seen in requests are added too).
  models?: string[];
  // Answer 404 model_not_found to a request for a model not in `models` (default false: any
  // model is served).
  rejectUnknownModels?: boolean;
  // Requests kept in the log returned by requests() (oldest dropped first).
  maxLoggedRequests?: number;
  // The provider whose OpenAI-compatible API the server imitates (refusals, reasoning, usage,
  // Azure routes); default 'generic': every parameter accepted, as before profiles.
  profile?: FakeProviderProfile;
  // openai/azure-openai/openrouter: report this many cached prompt tokens (at most the prompt's)
  // on every reply instead of emulating OpenAI's prefix cache.
  cachedPromptTokens?: number;
  // The Batch API (/v1/files, /v1/batches): phase delay, expiring share, request limit.
  batches?: FakeBatchOptions;
}

export interface FakeRequestRecord {
  seq: number;
  method: string;
  path: string;
  // The body's model, or the Azure deployment named in the path.
  model: string | null;
  // The Authorization header, or "api-key <key>" for the azure-openai profile.
  authorization: string | null;
  body: unknown;
  // Date.now() when the request was fully received and when the response ended.
  receivedAt: number;
  respondedAt: number | null;
  status: number | null;
  fault: FakeFaultKind | null;
}

export interface FakeLlmStats {
  total: number;
  byPath: Record<string, number>;
  byModel: Record<string, number>;
  byStatus: Record<string, number>;
  faults: Record<string, number>;
  // Requests received and not yet answered (including those queued for a slot).
  inFlight: number;
  maxInFlight: number;
  // Requests holding a capacity slot / waiting for one.
  active: number;
  maxActive: number;
  queued: number;
  maxQueued: number;
  // Sum over requests of the time they held a capacity slot (ms).
  busySlotMs: number;
  // Completion requests answered with 200, and the tokens they reported.
  completedChats: number;
  completedEmbeddings: number;
  promptTokens: number;
  completionTokens: number;
  // Files uploaded, batches created and their requests (answered lines count in completedChats).
  batches: FakeBatchStats;
}
