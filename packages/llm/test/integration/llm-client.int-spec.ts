import { afterEach, describe, expect, it } from '@jest/globals';
import type { FakeLlmServer } from '@precis/testing';
import {
  LlmConfigError,
  LlmHttpError,
  LlmRateLimitError,
  LlmResponseError,
  LlmTimeoutError,
  MemoryLlmStore,
  PermanentModelError,
} from '../../src/index.js';
import { API_KEY, setup, user } from './helpers.js';

const servers: FakeLlmServer[] = [];
async function boot(...args: Parameters<typeof setup>) {
  const s = await setup(...args);
  servers.push(s.server);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe("LlmClient against the fake server over HTTP (the SDK's fetch)", () => {
  it('returns text, choices, usage, exact cost and logprobs, and sends the key', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, {}, store);
    const r = await client.chat({
      model: 'chat',
      messages: user('hello world'),
      n: 2,
      logprobs: true,
      topLogprobs: 2,
      runId: '00000000-0000-4000-8000-000000000001',
      taskId: 't1',
    });
    expect(r.choices).toEqual(['echo: hello world', 'echo: hello world #1']);
    expect(r.text).toBe('echo: hello world');
    expect(r.usage).toEqual({ promptTokens: 8, completionTokens: 10, cachedTokens: 0, reasoningTokens: 0 });
    // 8 * 0.15 / 1e6 + 10 * 0.6 / 1e6
    expect(r.costUsd).toBe('0.0000072000');
    expect(r.cached).toBe(false);
    expect(r.logprobs?.[0]?.top).toHaveLength(2);
    expect(server.requests()[0]?.authorization).toBe(`Bearer ${API_KEY}`);
    expect(server.requests()[0]?.body).toMatchObject({
      model: 'fake-chat-1',
      n: 2,
      logprobs: true,
      top_logprobs: 2,
    });
    expect(store.calls).toHaveLength(1);
    expect(store.calls[0]).toMatchObject({
      runId: '00000000-0000-4000-8000-000000000001',
      taskId: 't1',
      model: 'chat',
      modelId: 'fake-chat-1',
      kind: 'chat',
      tokensIn: 8,
      tokensOut: 10,
      costUsd: '0.0000072000',
      attempts: 1,
      error: null,
      cacheHit: false,
    });
  });

  it('never exceeds the configured concurrency (measured at the server)', async () => {
    const { server, client } = await boot({ latencyMs: 30, capacity: 100 }, { maxConcurrency: 3 });
    const seen: number[] = [];
    const calls = Array.from({ length: 24 }, (_, i) =>
      client
        .chat({ model: 'chat', messages: user(`q${i}`), cache: false })
        .then(() => seen.push(client.stats().chat!.inFlight)),
    );
    await Promise.all(calls);
    expect(server.stats().maxInFlight).toBe(3);
    expect(server.stats().completedChats).toBe(24);
    expect(Math.max(...seen)).toBeLessThanOrEqual(3);
    expect(client.stats().chat).toMatchObject({ inFlight: 0, queued: 0, capacity: 3 });
  });

  it('waits out Retry-After on 429 before retrying', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, {}, store);
    server.injectFault({ kind: 'rate-limit', retryAfterMs: 400 }, 2);
    const r = await client.chat({ model: 'chat', messages: user('x') });
    expect(r.attempts).toBe(3);
    const log = server.requests();
    expect(log.map((q) => q.status)).toEqual([429, 429, 200]);
    // Each retry reached the server no earlier than the delay the server asked for.
    expect(log[1]!.receivedAt - log[0]!.respondedAt!).toBeGreaterThanOrEqual(400);
    expect(log[2]!.receivedAt - log[1]!.respondedAt!).toBeGreaterThanOrEqual(400);
    expect(store.calls[0]).toMatchObject({ attempts: 3, error: null });
  });

  it('honours Retry-After in seconds too, and gives up with LlmRateLimitError past maxRetries', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, { maxRetries: 1 }, store);
    server.injectFault({ kind: 'rate-limit', retryAfterSeconds: 1 }, 2);
    const err = await client.chat({ model: 'chat', messages: user('x') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmRateLimitError);
    expect((err as LlmRateLimitError).retryAfterMs).toBe(1000);
    const log = server.requests();
    expect(log).toHaveLength(2);
    expect(log[1]!.receivedAt - log[0]!.respondedAt!).toBeGreaterThanOrEqual(1000);
    expect(store.calls[0]).toMatchObject({ attempts: 2, tokensIn: 0, costUsd: '0.0000000000' });
    expect(store.calls[0]?.error).toMatch(/^LlmRateLimitError: .*429/);
  });

  it('retries 5xx up to the limit, then records the failure in the ledger', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, { maxRetries: 2 }, store);
    server.injectFault({ kind: 'server-error' }, 2);
    server.injectFault({ kind: 'unavailable' }, 5);
    const err = await client
      .chat({ model: 'chat', messages: user('x'), taskId: 'task-9' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmHttpError);
    expect((err as LlmHttpError).status).toBe(503);
    expect((err as LlmHttpError).attempts).toBe(3);
    expect(server.stats().total).toBe(3);
    expect(store.calls).toHaveLength(1);
    expect(store.calls[0]).toMatchObject({
      taskId: 'task-9',
      attempts: 3,
      response: null,
      cacheHit: false,
    });
    expect(store.calls[0]?.error).toMatch(/503/);
    // A later success is not served a cached failure.
    server.clearFaults();
    expect((await client.chat({ model: 'chat', messages: user('x') })).cached).toBe(false);
  });

  it('times out hung calls, retries them, then fails with LlmTimeoutError', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, { timeoutMs: 200, maxRetries: 1 }, store);
    server.injectFault({ kind: 'hang' }, 2);
    const err = await client.chat({ model: 'chat', messages: user('x') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmTimeoutError);
    expect((err as LlmTimeoutError).attempts).toBe(2);
    expect(server.requests().map((r) => r.fault)).toEqual(['hang', 'hang']);
    expect(store.calls[0]?.error).toMatch(/LlmTimeoutError: .*200 ms/);
    expect(client.stats().chat?.inFlight).toBe(0);
  });

  it('serves an identical second call from the cache with zero HTTP requests', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, {}, store);
    const req = {
      model: 'chat',
      messages: user('cache me'),
      temperature: 0,
      templateVersion: 'summarize@1',
    };
    const first = await client.chat(req);
    server.resetStats();
    const second = await client.chat(req);
    expect(server.stats().total).toBe(0);
    expect(second).toMatchObject({
      cached: true,
      text: first.text,
      usage: first.usage,
      costUsd: '0.0000000000',
      attempts: 0,
    });
    expect(store.calls[1]).toMatchObject({ cacheHit: true, response: null, cacheKey: first.cacheKey });
    // Different template version, or cache off: a real call.
    await client.chat({ ...req, templateVersion: 'summarize@2' });
    await client.chat({ ...req, cache: false });
    expect(server.stats().total).toBe(2);
  });

  it('retries non-JSON and truncated bodies, then records them as failures', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, { maxRetries: 1 }, store);
    server.injectFault({ kind: 'non-json' });
    server.injectFault({ kind: 'truncate' });
    const err = await client.chat({ model: 'chat', messages: user('x') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmResponseError);
    expect(server.requests().map((r) => r.fault)).toEqual(['non-json', 'truncate']);
    expect(store.calls[0]).toMatchObject({ attempts: 2, response: null });
    server.injectFault({ kind: 'non-json' });
    const ok = await client.chat({ model: 'chat', messages: user('x') });
    expect(ok.attempts).toBe(2);
  });

  it('never leaks the API key in errors or the ledger', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({ apiKey: 'sk-a-different-key' }, {}, store);
    const err = await client.chat({ model: 'chat', messages: user('x') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PermanentModelError);
    expect((err as PermanentModelError).status).toBe(401);
    expect((err as PermanentModelError).attempts).toBe(1);
    expect(server.requests()[0]?.authorization).toBe(`Bearer ${API_KEY}`);
    const everything = `${(err as Error).message} ${(err as Error).stack} ${JSON.stringify(store.calls)}`;
    expect(everything).not.toContain(API_KEY);
    expect(everything).toContain('[REDACTED]');
  });

  it('fails clearly when the key variable is missing or the model is unknown', async () => {
    const { client } = await boot();
    const noKey = new (client.constructor as typeof import('../../src/index.js').LlmClient)({
      registry: client.registry,
      env: {},
    });
    await expect(noKey.chat({ model: 'chat', messages: user('x') })).rejects.toThrow(
      /the environment variable FAKE_LLM_KEY is not set/,
    );
    await expect(client.chat({ model: 'nope', messages: user('x') })).rejects.toThrow(LlmConfigError);
    await expect(client.chat({ model: 'embed', messages: user('x') })).rejects.toThrow(
      /registered as kind "embedding"/,
    );
    await expect(client.chat({ model: 'chat', messages: user('x'), runId: 'run-1' })).rejects.toThrow(
      /runId must be a UUID/,
    );
  });

  it('refuses a prompt over the context window before sending it, counting the joined messages', async () => {
    const { server, client } = await boot({}, { contextWindow: 100 });
    // "lorem " is one token: 2 messages of 60 words each, plus 30 reserved for the answer.
    const long = [
      { role: 'system' as const, content: 'lorem '.repeat(60) },
      { role: 'user' as const, content: 'lorem '.repeat(60) },
    ];
    await expect(client.chat({ model: 'chat', messages: long, maxTokens: 30 })).rejects.toThrow(
      /prompt for model "chat" has ~\d+ tokens \+ maxTokens 30, more than its context window of 100/,
    );
    // Close to the window by the ~4 chars/token estimate, but fits by the exact count: sent.
    const close = [{ role: 'user' as const, content: 'lorem '.repeat(50) }];
    await expect(client.chat({ model: 'chat', messages: close, maxTokens: 30 })).resolves.toMatchObject({
      cached: false,
    });
    expect(server.stats().completedChats).toBe(1);
  });

  it('embeds with cost on input tokens and caches embeddings', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({ embeddingDim: 12 }, {}, store);
    const a = await client.embed({ model: 'embed', input: ['alpha beta', 'gamma'] });
    expect(a.vectors).toHaveLength(2);
    expect(a.vectors[0]).toHaveLength(12);
    expect(a.usage.promptTokens).toBe(3);
    expect(a.costUsd).toBe('0.0000000600');
    const b = await client.embed({ model: 'embed', input: ['alpha beta', 'gamma'] });
    expect(b.cached).toBe(true);
    expect(b.vectors).toEqual(a.vectors);
    expect(server.stats().byPath['/v1/embeddings']).toBe(1);
    expect(await store.totals()).toMatchObject({ calls: 2, cacheHits: 1, costUsd: '0.0000000600' });
  });
});
