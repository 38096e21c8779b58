export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  // Registry name of the model.
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  // The method runs as well at the model's own temperature (a summarizer): a model that takes
  // only its fixed temperature (reasoning models) gets none sent instead of a refusal.
  anyTemperature?: boolean;
  topP?: number;
  maxTokens?: number;
  n?: number;
  seed?: number;
  stop?: string[];
  // Ask for token logprobs; topLogprobs alternatives per token (0..20).
  logprobs?: boolean;
  topLogprobs?: number;
  // Part of the cache key (prompt template id@version, plus any re-ask suffix).
  templateVersion?: string;
  runId?: string;
  taskId?: string;
  // Use the response cache for this call (default: the client's cacheEnabled).
  cache?: boolean;
  signal?: AbortSignal;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
  top: { token: string; logprob: number }[];
}

export interface LlmUsage {
  promptTokens: number;
  // Reasoning included (providers count it in completion_tokens).
  completionTokens: number;
  // Prompt tokens served from the provider's prompt cache, and the completion's reasoning tokens.
  cachedTokens?: number;
  reasoningTokens?: number;
}

export interface ChatResult {
  // First choice's text, reasoning (a <think> block or a reasoning field) left out.
  text: string;
  choices: string[];
  // Each choice's reasoning text where the provider returned any (the ledger keeps the raw reply).
  reasoning: (string | null)[];
  // How the request was shaped to the model, e.g. "sampled at the model's fixed temperature 1".
  notes: string[];
  finishReasons: (string | null)[];
  usage: LlmUsage;
  cached: boolean;
  // Exact decimal USD (10 fractional digits); "0.0000000000" for cache hits.
  costUsd: string;
  // Wall time of the call as the caller saw it (limits, retries and backoff included).
  latencyMs: number;
  attempts: number;
  // Logprobs of the first choice when requested and returned.
  logprobs?: TokenLogprob[];
  cacheKey: string;
}

export interface EmbedRequest {
  model: string;
  input: string[];
  dimensions?: number;
  runId?: string;
  taskId?: string;
  cache?: boolean;
  signal?: AbortSignal;
}

export interface EmbedResult {
  vectors: number[][];
  usage: LlmUsage;
  cached: boolean;
  costUsd: string;
  latencyMs: number;
  attempts: number;
  cacheKey: string;
}
