import type { BatchSettings } from './batch-settings.js';
import type { ProviderSettings } from './provider-fields.js';

export type ModelKind = 'chat' | 'embedding';

// One model as the client uses it (validated, defaults applied).
export interface ModelSpec extends ProviderSettings {
  name: string;
  kind: ModelKind;
  baseURL: string;
  // Name of the environment variable holding the API key (never the key itself).
  apiKeyEnv: string | null;
  modelId: string;
  contextWindow: number;
  maxConcurrency: number;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  // USD per 1M tokens, as written (decimal string) and in exact 1e-4 units.
  pricePer1MInput: string;
  pricePer1MOutput: string;
  // Prompt tokens the provider served from its prompt cache (default: the input price).
  pricePer1MCachedInput: string;
  priceInUnits: bigint;
  priceOutUnits: bigint;
  priceCachedInUnits: bigint;
  timeoutMs: number;
  maxRetries: number;
  // Backoff base and cap for retries without a Retry-After.
  retryBaseMs: number;
  retryMaxMs: number;
  // The longest Retry-After a call obeys before its own retry (a server may ask for minutes).
  maxRetryAfterSeconds: number;
  // Output tokens a call without maxTokens may produce, as reserved against a run's cost limit.
  defaultMaxTokens: number;
  // Batch API settings (registry `batch`), null when the model's calls always go online.
  batch: BatchSettings | null;
}

export interface ModelRegistry {
  // Where it came from (file path or "<object>"), for error messages.
  source: string;
  // Set when a server loaded it from this setting (e.g. PRECIS_MODELS): errors its clients may
  // read then name the entry and the setting, never the server's file path.
  setting?: string;
  models: ReadonlyMap<string, ModelSpec>;
  get(name: string): ModelSpec;
  names(): string[];
}

// The file format (YAML or JSON). `defaults` apply to every model that does not set the field.
export interface ModelRegistryInput {
  defaults?: Partial<ModelEntryInput>;
  models: Record<string, ModelEntryInput>;
}

export interface ModelEntryInput {
  kind?: ModelKind;
  baseURL: string;
  apiKeyEnv?: string;
  model: string;
  contextWindow?: number;
  maxConcurrency?: number;
  requestsPerMinute?: number;
  tokensPerMinute?: number;
  pricePer1MInput?: string | number;
  pricePer1MOutput?: string | number;
  timeoutMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
  maxRetryAfterSeconds?: number;
  defaultMaxTokens?: number;
  pricePer1MCachedInput?: string | number;
  provider?: string;
  capabilities?: Record<string, unknown>;
  reasoning?: boolean | { effort?: string };
  thinking?: boolean;
  extraBody?: Record<string, unknown>;
  deployment?: string;
  apiVersion?: string;
  lengthRetryFactor?: number;
  batch?: Record<string, unknown> | false;
}
