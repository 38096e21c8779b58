import { type FakeLlmServer, type FakeLlmServerOptions, startFakeLlmServer } from '@precis/testing';
import {
  LimiterRegistry,
  LlmClient,
  type LlmStore,
  loadModelRegistry,
  type ModelEntryInput,
} from '../../src/index.js';

export const API_KEY = 'sk-test-SECRET-0123456789';

export async function setup(
  serverOpts: FakeLlmServerOptions = {},
  model: Partial<ModelEntryInput> = {},
  store?: LlmStore,
): Promise<{ server: FakeLlmServer; client: LlmClient }> {
  const server = await startFakeLlmServer({ apiKey: API_KEY, ...serverOpts });
  const registry = loadModelRegistry({
    models: {
      chat: {
        baseURL: server.baseURL,
        apiKeyEnv: 'FAKE_LLM_KEY',
        model: 'fake-chat-1',
        maxConcurrency: 4,
        pricePer1MInput: '0.15',
        pricePer1MOutput: '0.6',
        timeoutMs: 5_000,
        maxRetries: 3,
        retryBaseMs: 10,
        retryMaxMs: 50,
        ...model,
      },
      embed: {
        kind: 'embedding',
        baseURL: server.baseURL,
        apiKeyEnv: 'FAKE_LLM_KEY',
        model: 'fake-embed-1',
        pricePer1MInput: '0.02',
      },
    },
  });
  // A private limiter registry per test keeps tests independent of each other.
  const client = new LlmClient({
    registry,
    store,
    env: { FAKE_LLM_KEY: API_KEY },
    limiters: new LimiterRegistry(),
  });
  return { server, client };
}

export const user = (content: string) => [{ role: 'user' as const, content }];
