import OpenAI, { AzureOpenAI } from 'openai';
import type { ModelSpec } from '../registry/model-spec.js';
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
