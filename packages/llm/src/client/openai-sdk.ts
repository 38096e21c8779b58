import OpenAI, { AzureOpenAI } from 'openai';
import { MissingApiKeyError } from '../errors.js';
import type { ModelRegistry, ModelSpec } from '../registry/model-spec.js';
import { httpFetch } from './http-fetch.js';

// The SDK client of one model: Azure's client for azure-openai entries (deployment and API
// version in the URL, the key in an api-key header), else the plain one. Retries are ours.
export function createOpenAiSdk(spec: ModelSpec, apiKey: string | undefined): OpenAI {
  // Local servers (vLLM, Ollama...) need no key, but the SDK insists on one.
  const common = {
    apiKey: apiKey ?? 'no-key',
    maxRetries: 0,
    timeout: spec.timeoutMs + 5_000,
    fetch: httpFetch,
  };
  return spec.azure
    ? new AzureOpenAI({ ...common, endpoint: spec.baseURL, ...spec.azure })
    : new OpenAI({ ...common, baseURL: spec.baseURL });
}

// A model's SDK client and the secrets to keep out of its error texts.
export interface Sdk {
  openai: OpenAI;
  secrets: string[];
}

// One SDK client per endpoint and key, made on first use: refused without the entry's key.
export class SdkClients {
  private readonly sdks = new Map<string, Sdk>();

  constructor(
    private readonly registry: ModelRegistry,
    private readonly env: Record<string, string | undefined>,
  ) {}

  for(spec: ModelSpec): Sdk {
    const apiKey = spec.apiKeyEnv ? this.env[spec.apiKeyEnv] : undefined;
    if (spec.apiKeyEnv && !apiKey)
      throw new MissingApiKeyError(spec.name, spec.baseURL, spec.apiKeyEnv, this.registry);
    const key = `${spec.baseURL}\u0000${apiKey ?? ''}`;
    let sdk = this.sdks.get(key);
    if (!sdk) {
      sdk = { openai: createOpenAiSdk(spec, apiKey), secrets: apiKey ? [apiKey] : [] };
      this.sdks.set(key, sdk);
    }
    return sdk;
  }
}
