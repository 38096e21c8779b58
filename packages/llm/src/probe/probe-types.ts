import type { ModelKind } from '../registry/model-spec.js';
import type { Provider, Support } from '../registry/providers.js';

// What a few probe requests showed a chat model's endpoint does with each request field.
export interface ChatObservations {
  // Which output-budget parameter was accepted ('both': either works).
  tokenParam: 'max_tokens' | 'max_completion_tokens' | 'both';
  temperatureZero: 'accepted' | 'refused';
  // n = 2: two choices (honoured), one (ignored), HTTP 400 (refused).
  n: Support;
  // logprobs with top_logprobs 2: returned, absent, HTTP 400.
  logprobs: Support;
  // Alternatives per token the logprobs probe got back (0 unless honoured).
  topLogprobs: number;
  // One reply cannot tell a seed honoured from one ignored.
  seed: 'accepted' | 'refused';
  reasoningText: 'field' | 'think-tags' | 'hidden' | 'none seen';
  // Why a probe was refused (the server's message, secrets redacted), by capability.
  refusals: Record<string, string>;
}

export const PROBED_CAPABILITIES = [
  'tokenParam',
  'temperature',
  'n',
  'logprobs',
  'seed',
  'reasoningText',
] as const;
export type ProbedCapability = (typeof PROBED_CAPABILITIES)[number] | 'embeddings';

// One line of a model's table: what the registry declares beside what the endpoint did.
export interface CapabilityRow {
  capability: ProbedCapability;
  declared: string;
  observed: string;
  agrees: boolean;
  // The observation fits more than one declared value (seed accepted: honoured or ignored).
  either: boolean;
  // Why it reads so: a refusal's message, or what could not be told apart.
  note: string | null;
}

// The registry lines that would match what was observed: a provider whose preset fits best
// (the declared one on a tie), and only the capabilities that differ from that preset.
export interface RegistrySuggestion {
  provider: Provider;
  // Set only where it would change the entry's reasoning (OpenAI's presets follow it).
  reasoning?: boolean;
  capabilities: Record<string, unknown>;
  // The same as YAML, ready to paste under the model's name.
  yaml: string;
}

export interface ModelCheck {
  model: string;
  kind: ModelKind;
  provider: Provider;
  modelId: string;
  baseURL: string;
  // ok: everything agrees; mismatch: some row disagrees; unusable: the endpoint refused the model.
  status: 'ok' | 'mismatch' | 'unusable';
  // Why the model is unusable (HTTP status and the server's message, secrets redacted).
  problem: string | null;
  rows: CapabilityRow[];
  suggestion: RegistrySuggestion | null;
  // HTTP requests sent, retries included.
  requests: number;
}
