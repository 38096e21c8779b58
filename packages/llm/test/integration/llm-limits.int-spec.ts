import { afterEach, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import {
  LimiterRegistry,
  LlmAbortedError,
  LlmClient,
  loadModelRegistry,
  MemoryLlmStore,
  type ModelEntryInput,
} from '../../src/index.js';
import { user } from './helpers.js';

const servers: FakeLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serverAndRegistry(model: Partial<ModelEntryInput>, latencyMs = 0) {
  const server = await startFakeLlmServer({ latencyMs });
  servers.push(server);
  const registry = loadModelRegistry({
    models: { m: { baseURL: server.baseURL, model: 'fake', retryBaseMs: 10, ...model } },
  });
  return { server, registry };
}

describe('limits shared by every client of the process', () => {
  it('two clients on the same limiter registry never exceed the model concurrency together', async () => {
    // 100 ms per answer: the calls overlap even when a loaded machine (CI) is slow to send them.
    const { server, registry } = await serverAndRegistry({ maxConcurrency: 3 }, 100);
    const limiters = new LimiterRegistry();
    const a = new LlmClient({ registry, limiters, cacheEnabled: false });
    const b = new LlmClient({ registry, limiters, cacheEnabled: false });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? a : b).chat({ model: 'm', messages: user(`q${i}`) })),
    );
    expect(server.stats().completedChats).toBe(12);
    expect(server.stats().maxInFlight).toBe(3);
  });

  it('holds requests beyond requestsPerMinute until the bucket refills', async () => {
    // 120/min = one request per 500 ms once the first minute's burst of 120 is spent.
    const { server, registry } = await serverAndRegistry({ requestsPerMinute: 120, maxConcurrency: 200 });
    const client = new LlmClient({ registry, limiters: new LimiterRegistry(), cacheEnabled: false });
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: 122 }, (_, i) => client.chat({ model: 'm', messages: user(`r${i}`) })),
    );
    const received = server
      .requests()
      .map((r) => r.receivedAt)
      .sort((x, y) => x - y);
    expect(received).toHaveLength(122);
    // The bucket starts full (120) after t0 and gains 2 tokens/s: the 121st token exists no
    // earlier than t0 + 500 ms, the 122nd no earlier than t0 + 1000 ms.
    expect(received[120]! - t0).toBeGreaterThanOrEqual(500);
    expect(received[121]! - t0).toBeGreaterThanOrEqual(1000);
  });

  it('aborts a call when the caller signal fires and records it', async () => {
    const { server, registry } = await serverAndRegistry({ timeoutMs: 10_000 });
    const store = new MemoryLlmStore();
    const client = new LlmClient({ registry, store, limiters: new LimiterRegistry() });
    server.injectFault({ kind: 'hang' });
    const ac = new AbortController();
    const pending = client.chat({ model: 'm', messages: user('x'), signal: ac.signal });
    setTimeout(() => ac.abort(), 100);
    await expect(pending).rejects.toBeInstanceOf(LlmAbortedError);
    expect(store.calls[0]).toMatchObject({ attempts: 1, response: null });
    expect(store.calls[0]?.error).toMatch(/aborted by the caller/);
    expect(client.stats().m?.inFlight).toBe(0);
  });
});

describe('context window', () => {
  it('refuses a prompt that cannot fit, without an HTTP request', async () => {
    const { server, registry } = await serverAndRegistry({ contextWindow: 50 });
    const client = new LlmClient({ registry, limiters: new LimiterRegistry() });
    await expect(client.chat({ model: 'm', messages: user('word '.repeat(60)) })).rejects.toThrow(
      /has ~\d+ tokens, more than its context window of 50/,
    );
    await expect(client.chat({ model: 'm', messages: user('short'), maxTokens: 60 })).rejects.toThrow(
      /maxTokens 60/,
    );
    expect(server.stats().total).toBe(0);
    expect((await client.chat({ model: 'm', messages: user('short'), maxTokens: 20 })).text).toBe(
      'echo: short',
    );
  });
});
