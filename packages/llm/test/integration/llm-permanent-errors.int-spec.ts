import { afterEach, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, type FakeLlmServerOptions, startFakeLlmServer } from '@precis/testing';
import {
  LimiterRegistry,
  LlmClient,
  LlmConfigError,
  loadModelRegistry,
  MemoryLlmStore,
  MissingApiKeyError,
  type ModelEntryInput,
  PermanentModelError,
} from '../../src/index.js';
import { API_KEY, user } from './helpers.js';

// Refusals a retry cannot change fail at once, with one message, and make the endpoint (401/403)
// or the model (404) unusable for the client; Retry-After delays only the call that got it.
const servers: FakeLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function boot(serverOpts: FakeLlmServerOptions = {}, chat: Partial<ModelEntryInput> = {}, env = {}) {
  const server = await startFakeLlmServer({ apiKey: API_KEY, models: ['fake-chat-1'], ...serverOpts });
  servers.push(server);
  const model = (id: string): ModelEntryInput => ({
    baseURL: server.baseURL,
    apiKeyEnv: 'FAKE_LLM_KEY',
    model: id,
    maxConcurrency: 1,
    maxRetries: 3,
    retryBaseMs: 10,
    retryMaxMs: 50,
  });
  const registry = loadModelRegistry({
    models: { chat: { ...model('fake-chat-1'), ...chat }, other: model('no-such-model') },
  });
  const store = new MemoryLlmStore();
  const client = new LlmClient({
    registry,
    store,
    env: { FAKE_LLM_KEY: API_KEY, ...env },
    limiters: new LimiterRegistry(),
  });
  return { server, client, store };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe('permanent refusals', () => {
  it('a 401 fails after one request, and every queued or later call to the endpoint fails the same way without sending', async () => {
    const { server, client, store } = await boot({ apiKey: 'sk-another-key-0000' });
    const calls = Array.from({ length: 5 }, (_, i) =>
      failure(client.chat({ model: 'chat', messages: user(`q${i}`) })),
    );
    const errors = await Promise.all(calls);
    expect(server.stats().total).toBe(1);
    // The one call that got a slot first made the request; the others were refused in the queue.
    expect(errors.map((e) => (e as PermanentModelError).attempts).sort()).toEqual([0, 0, 0, 0, 1]);
    const first = errors.find((e) => (e as PermanentModelError).attempts === 1) as PermanentModelError;
    expect(first).toBeInstanceOf(PermanentModelError);
    expect(first).toMatchObject({ status: 401, model: 'chat', baseURL: server.baseURL });
    expect(first.message).toBe(
      `model "chat" at ${server.baseURL} refused the request with HTTP 401: Incorrect API key provided: Bearer [REDACTED]; not retried: check the API key variable (apiKeyEnv) and its access to this model`,
    );
    for (const e of errors) {
      expect(e).toBeInstanceOf(PermanentModelError);
      expect((e as PermanentModelError).message).toBe(first.message);
    }
    // Every call that wrote a 'sent' row settled it as an error; none is left sent.
    expect((await store.totals()).sent).toBe(0);
    const rows = store.calls.length;
    // The whole endpoint is unusable with this key: another model behind it sends nothing either.
    const later = await failure(client.chat({ model: 'other', messages: user('later') }));
    expect((later as PermanentModelError).message).toBe(first.message);
    expect(server.stats().total).toBe(1);
    expect(store.calls).toHaveLength(rows);
    expect(JSON.stringify(store.calls)).not.toContain('sk-another-key-0000');
  });

  it('a missing key variable fails before any request, naming the variable and the model', async () => {
    const { server, client, store } = await boot({}, {}, { FAKE_LLM_KEY: undefined });
    const err = await failure(client.chat({ model: 'chat', messages: user('x') }));
    expect(err).toBeInstanceOf(MissingApiKeyError);
    expect(err).toBeInstanceOf(PermanentModelError);
    expect(err).toMatchObject({ variable: 'FAKE_LLM_KEY', model: 'chat', status: null });
    expect((err as Error).message).toBe(
      'model "chat" needs an API key but the environment variable FAKE_LLM_KEY is not set (apiKeyEnv in <object>); set FAKE_LLM_KEY, or remove apiKeyEnv for a server without auth',
    );
    expect(server.stats().total).toBe(0);
    expect(store.calls).toHaveLength(0);
  });

  it('a 404 model fails after one request and makes only that model unusable', async () => {
    const { server, client } = await boot({ rejectUnknownModels: true });
    const err = await failure(client.chat({ model: 'other', messages: user('x') }));
    expect(err).toBeInstanceOf(PermanentModelError);
    expect(err).toMatchObject({ status: 404, model: 'other', attempts: 1 });
    expect((err as Error).message).toBe(
      `model "other" at ${server.baseURL} refused the request with HTTP 404: The model \`no-such-model\` does not exist or you do not have access to it.; not retried: check the model id (model) and baseURL in the model registry`,
    );
    const again = await failure(client.chat({ model: 'other', messages: user('y') }));
    expect((again as Error).message).toBe((err as Error).message);
    expect(server.stats().total).toBe(1);
    // The endpoint itself still serves the models it has.
    expect((await client.chat({ model: 'chat', messages: user('z') })).text).toBe('echo: z');
    expect(server.stats().byStatus).toEqual({ '200': 1, '404': 1 });
  });

  it.each([400, 403, 422])('HTTP %i is not retried', async (status) => {
    const { server, client, store } = await boot();
    server.injectFault({ kind: 'status', status, message: 'scripted refusal' }, 1);
    const err = await failure(client.chat({ model: 'chat', messages: user('x') }));
    expect(err).toMatchObject({ status, serverMessage: 'scripted refusal', attempts: 1 });
    expect(server.stats().total).toBe(1);
    expect(store.calls.map((c) => [c.status, c.attempts])).toEqual([['error', 1]]);
    // 400/422 concern the request only; 403 makes the endpoint unusable.
    const next = await failure(client.chat({ model: 'chat', messages: user('y') }));
    expect(next === null).toBe(status !== 403);
    expect(server.stats().total).toBe(status === 403 ? 1 : 2);
  });

  it('an unknown registry name stays an LlmConfigError', async () => {
    const { client } = await boot();
    await expect(client.chat({ model: 'nope', messages: user('x') })).rejects.toThrow(LlmConfigError);
  });
});

describe('Retry-After', () => {
  it('is capped by maxRetryAfterSeconds and delays only the call that got it', async () => {
    const { server, client } = await boot({}, { maxRetryAfterSeconds: 1 });
    server.injectFault({ kind: 'rate-limit', retryAfterSeconds: 600 }, 1);
    const order: string[] = [];
    const a = client.chat({ model: 'chat', messages: user('a') }).then((r) => {
      order.push('a');
      return r;
    });
    // Once the endpoint has refused `a` with Retry-After: 600, `b` goes out at once.
    while (server.requests()[0]?.status !== 429) await new Promise((r) => setTimeout(r, 5));
    const b = await client.chat({ model: 'chat', messages: user('b') });
    order.push('b');
    // Without the cap, `a` would wait 600 s (far past this test's timeout).
    const ra = await a;
    expect(order).toEqual(['b', 'a']);
    expect([ra.attempts, b.attempts]).toEqual([2, 1]);
    expect(
      server
        .requests()
        .map((q) => [(q.body as { messages: { content: string }[] }).messages[0]!.content, q.status]),
    ).toEqual([
      ['a', 429],
      ['b', 200],
      ['a', 200],
    ]);
    expect(client.stats().chat).not.toHaveProperty('pausedUntil');
  });
});
