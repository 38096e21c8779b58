import { afterEach, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import {
  LimiterRegistry,
  LlmClient,
  LlmConfigError,
  loadModelRegistry,
  MemoryLlmStore,
  MissingApiKeyError,
  type ModelEntryInput,
  PermanentModelError,
  PreflightError,
  parseModelRegistryText,
  preflightModels,
} from '../../src/index.js';
import { API_KEY } from './helpers.js';

const RUN = '55555555-5555-4555-8555-555555555555';
const servers: FakeLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

// Two chat names for one endpoint + model (one request for both), a model the server does not
// have, an embedding model, and a model behind a second endpoint.
async function boot(
  env: Record<string, string | undefined> = { FAKE_LLM_KEY: API_KEY, OTHER_KEY: 'sk-other-0000' },
) {
  const main = await startFakeLlmServer({
    apiKey: API_KEY,
    models: ['fake-chat-1', 'fake-embed-1'],
    rejectUnknownModels: true,
  });
  const other = await startFakeLlmServer({ apiKey: 'sk-other-0000' });
  servers.push(main, other);
  const at = (server: FakeLlmServer, model: string, apiKeyEnv = 'FAKE_LLM_KEY'): ModelEntryInput => ({
    baseURL: server.baseURL,
    apiKeyEnv,
    model,
    maxRetries: 2,
    retryBaseMs: 5,
    retryMaxMs: 10,
  });
  const registry = loadModelRegistry({
    models: {
      judge: at(main, 'fake-chat-1'),
      summarizer: at(main, 'fake-chat-1'),
      missing: at(main, 'no-such-model'),
      embed: { ...at(main, 'fake-embed-1'), kind: 'embedding' },
      remote: at(other, 'fake-chat-2', 'OTHER_KEY'),
    },
  });
  const store = new MemoryLlmStore();
  const client = new LlmClient({ registry, store, env, limiters: new LimiterRegistry() });
  return { main, other, client, store };
}

describe('preflightModels', () => {
  it('sends one max_tokens 1 request per distinct endpoint + model, uncached, in the run ledger', async () => {
    const { main, other, client, store } = await boot();
    await preflightModels(client, ['judge', 'summarizer', 'embed', 'remote', 'judge'], { runId: RUN });
    expect(main.requests().map((r) => [r.path, r.model])).toEqual(
      expect.arrayContaining([
        ['/v1/chat/completions', 'fake-chat-1'],
        ['/v1/embeddings', 'fake-embed-1'],
      ]),
    );
    expect(main.stats().total).toBe(2);
    expect(other.stats().total).toBe(1);
    const chat = main.requests().find((r) => r.path === '/v1/chat/completions');
    expect(chat?.body).toMatchObject({ max_tokens: 1 });
    expect(store.calls.map((c) => [c.runId, c.status, c.cacheHit])).toEqual([
      [RUN, 'ok', false],
      [RUN, 'ok', false],
      [RUN, 'ok', false],
    ]);
    // Not served from the cache: a second preflight asks again.
    await preflightModels(client, ['judge'], { runId: RUN });
    expect(main.stats().total).toBe(3);
  });

  it('an unknown name or a missing key variable fails before any request', async () => {
    const { main, other, client } = await boot({ FAKE_LLM_KEY: API_KEY });
    await expect(preflightModels(client, ['judge', 'nope'])).rejects.toThrow(LlmConfigError);
    await expect(preflightModels(client, ['judge', 'nope'])).rejects.toThrow(/unknown model "nope"/);
    const err = await preflightModels(client, ['judge', 'remote']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MissingApiKeyError);
    expect((err as Error).message).toMatch(
      /^model "remote" needs an API key but the environment variable OTHER_KEY is not set/,
    );
    expect(main.stats().total + other.stats().total).toBe(0);
  });

  it('a permanent refusal throws one error naming status, model and endpoint; several are listed together', async () => {
    const { main, client } = await boot();
    const err = await preflightModels(client, ['judge', 'missing']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentModelError);
    expect(err).toMatchObject({ status: 404, model: 'missing', baseURL: main.baseURL });
    expect((err as Error).message).toMatch(
      new RegExp(`^model "missing" at ${main.baseURL} refused the request with HTTP 404`),
    );
    expect(main.stats().byStatus).toEqual({ '200': 1, '404': 1 });

    // The refused model is now unusable for this client: refused again without a request.
    await expect(preflightModels(client, ['missing'])).rejects.toThrow((err as Error).message);
    expect(main.stats().total).toBe(2);

    const fresh = await boot();
    fresh.main.injectFault({ kind: 'status', status: 403, message: 'no access' }, 1, {
      model: 'fake-embed-1',
    });
    const both = await preflightModels(fresh.client, ['missing', 'embed']).catch((e: unknown) => e);
    expect(both).toBeInstanceOf(PreflightError);
    expect((both as PreflightError).failures.map((f) => (f as PermanentModelError).status)).toEqual([
      404, 403,
    ]);
    expect((both as Error).message.split('\n')).toHaveLength(3);
  });

  it('retries a transient failure like any call', async () => {
    const { main, client } = await boot();
    main.injectFault({ kind: 'server-error' }, 2);
    await preflightModels(client, ['judge']);
    expect(main.requests().map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it('with request: false checks names and key variables only; a server registry names its entry, not its file', async () => {
    const server = await startFakeLlmServer({ apiKey: API_KEY });
    servers.push(server);
    const text = JSON.stringify({
      models: { 'gpt-judge': { baseURL: server.baseURL, apiKeyEnv: 'OPENAI_API_KEY', model: 'fake-chat-1' } },
    });
    const registry = parseModelRegistryText(text, '/etc/precis/models.yaml', { setting: 'PRECIS_MODELS' });
    const client = (env: Record<string, string>) =>
      new LlmClient({ registry, env, store: new MemoryLlmStore(), limiters: new LimiterRegistry() });
    const unset = await preflightModels(client({}), ['gpt-judge'], { request: false }).catch(
      (e: unknown) => e,
    );
    expect(unset).toBeInstanceOf(MissingApiKeyError);
    expect((unset as Error).message).toBe(
      'model "gpt-judge" needs an API key but the environment variable OPENAI_API_KEY is not set on the server (apiKeyEnv of registry entry "gpt-judge" in PRECIS_MODELS); set OPENAI_API_KEY in the environment of the gateway and of every worker, or remove apiKeyEnv for an endpoint without auth',
    );
    const keyed = client({ OPENAI_API_KEY: API_KEY });
    await expect(preflightModels(keyed, ['gpt-judge', 'nope'], { request: false })).rejects.toThrow(
      'unknown model "nope": not in the model registry PRECIS_MODELS on the server (known: gpt-judge)',
    );
    await preflightModels(keyed, ['gpt-judge'], { request: false });
    expect(server.stats().total).toBe(0);
    await preflightModels(keyed, ['gpt-judge']);
    expect(server.stats().byStatus).toEqual({ '200': 1 });
  });
});
