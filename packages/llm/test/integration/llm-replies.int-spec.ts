import { afterEach, describe, expect, it } from '@jest/globals';
import type { FakeLlmServer } from '@precis/testing';
import { LlmLengthError, MemoryLlmStore } from '../../src/index.js';
import { setup, user } from './helpers.js';

const servers: FakeLlmServer[] = [];
async function boot(...args: Parameters<typeof setup>) {
  const s = await setup(...args);
  servers.push(s.server);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const RUN = '00000000-0000-4000-8000-0000000000aa';

describe('replies as real models give them', () => {
  it('keeps a <think> block out of the answer and in the ledger, also from the cache', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, {}, store);
    server.enqueueReplies(['<think>\nThe user wants a summary.\n</think>\n\nSummary: a storm.']);
    const req = { model: 'chat', messages: user('summarize'), runId: RUN, taskId: 't1' };
    const fresh = await client.chat(req);
    expect(fresh.text).toBe('Summary: a storm.');
    expect(fresh.reasoning).toEqual(['The user wants a summary.']);
    const hit = await client.chat(req);
    expect(hit).toMatchObject({ cached: true, text: 'Summary: a storm.' });
    const raw = store.calls[0]!.response as { choices: { message: { content: string } }[] };
    expect(raw.choices[0]!.message.content).toContain('<think>');
    expect(server.stats().completedChats).toBe(1);
  });

  it('fails a reply cut at its budget with a message naming the budget, paid and never cached', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, {}, store);
    server.enqueueReplies([{ content: 'The story be', finishReason: 'length' }]);
    const err = await client
      .chat({ model: 'chat', messages: user('summarize'), maxTokens: 3, runId: RUN, taskId: 't1' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmLengthError);
    expect((err as Error).message).toBe(
      'model "chat" did not finish its reply (finish_reason "length"): it used all 3 max_tokens; raise maxTokens for model chat (the system\'s params.maxTokens), or set lengthRetryFactor in its registry entry to re-ask with a larger budget',
    );
    expect(store.calls).toHaveLength(1);
    // 9 prompt tokens x $0.15 + 3 completion tokens x $0.6 per 1M.
    expect(store.calls[0]).toMatchObject({
      status: 'error',
      tokensIn: 9,
      tokensOut: 3,
      costUsd: '0.0000031500',
    });
    expect(store.calls[0]!.response).not.toBeNull();
    expect(await store.findCached(store.calls[0]!.cacheKey)).toBeNull();
  });

  it('re-asks a cut reply with lengthRetryFactor x the budget; both calls are in the ledger', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, { lengthRetryFactor: 2 }, store);
    server.enqueueReplies([{ content: 'The story be', finishReason: 'length' }, 'The story ends well.']);
    const r = await client.chat({
      model: 'chat',
      messages: user('summarize'),
      maxTokens: 3,
      runId: RUN,
      taskId: 't1',
    });
    expect(r.text).toBe('The story ends well.');
    expect(server.requests().map((q) => (q.body as { max_tokens: number }).max_tokens)).toEqual([3, 6]);
    expect(store.calls.map((c) => c.status)).toEqual(['error', 'ok']);
    expect(store.calls[0]!.error).toContain('re-asking with 6 max_tokens (lengthRetryFactor 2)');
  });

  it('gives a model that ignores n one seeded, cached and ledgered call per sample', async () => {
    const store = new MemoryLlmStore();
    const { server, client } = await boot({}, { capabilities: { n: 'ignored' } }, store);
    const req = { model: 'chat', messages: user('rate it'), n: 5, seed: 11, runId: RUN, taskId: 't1' };
    const r = await client.chat(req);
    expect(r.choices).toHaveLength(5);
    expect(store.calls).toHaveLength(5);
    expect(server.requests().map((q) => (q.body as { seed: number; n?: number }).seed)).toEqual(
      expect.arrayContaining([11, 12, 13, 14, 15]),
    );
    expect(server.requests().every((q) => (q.body as { n?: number }).n === undefined)).toBe(true);
    const again = await client.chat(req);
    expect(again.cached).toBe(true);
    expect(server.stats().completedChats).toBe(5);
  });

  it.each([
    [
      'declared (provider: ollama): 5 calls of one sample from the start',
      { provider: 'ollama' },
      [undefined],
    ],
    ['undeclared (generic): the 1 choice it got, then 4 more calls', {}, [5, undefined]],
  ])(
    'an Ollama endpoint asked for n = 5 gives 5 samples from 5 ledgered calls, %s',
    async (_l, entry, ns) => {
      const store = new MemoryLlmStore();
      const { server, client } = await boot({ profile: 'ollama', apiKey: undefined }, entry, store);
      server.setRules([{ match: /./, reply: (ctx) => `sample ${ctx.requestIndex}` }]);
      const r = await client.chat({
        model: 'chat',
        messages: user('rate it'),
        n: 5,
        runId: RUN,
        taskId: 't1',
      });
      expect(r.choices).toHaveLength(5);
      expect(new Set(r.choices).size).toBe(5);
      expect(store.calls.filter((c) => c.status === 'ok')).toHaveLength(5);
      const sentN = [...new Set(server.requests().map((q) => (q.body as { n?: number }).n))];
      expect(sentN).toEqual(ns);
    },
  );

  it("names the reasoning that used a reasoning model's budget, and re-asks with a larger one", async () => {
    const store = new MemoryLlmStore();
    const entry = { provider: 'openai', model: 'gpt-5-mini', lengthRetryFactor: 2 };
    const { server, client } = await boot({ profile: 'openai', apiKey: undefined }, entry, store);
    server.setRules([{ match: /./, reply: 'A short answer.' }]);
    const r = await client.chat({
      model: 'chat',
      messages: user('summarize'),
      maxTokens: 40,
      runId: RUN,
      taskId: 't1',
    });
    expect(r.text).toBe('A short answer.');
    expect(store.calls.map((c) => [c.status, c.tokensOut, c.tokensReasoning])).toEqual([
      ['error', 40, 40],
      ['ok', 52, 48],
    ]);
    expect(store.calls[0]!.error).toBe(
      'LlmLengthError: model "chat" did not finish its reply (finish_reason "length"): it used all 40 max_completion_tokens, 40 of them reasoning; raise maxTokens for model chat (the system\'s params.maxTokens); re-asking with 80 max_completion_tokens (lengthRetryFactor 2)',
    );
    expect(
      server.requests().map((q) => (q.body as { max_completion_tokens: number }).max_completion_tokens),
    ).toEqual([40, 80]);
  });

  it('charges cached prompt tokens at the cached price and records them with the reasoning tokens', async () => {
    const store = new MemoryLlmStore();
    const entry = {
      provider: 'openai',
      model: 'o4-mini',
      pricePer1MInput: '1.1',
      pricePer1MCachedInput: '0.275',
      pricePer1MOutput: '4.4',
    };
    const { server, client } = await boot(
      { profile: 'openai', apiKey: undefined, cachedPromptTokens: 4 },
      entry,
      store,
    );
    server.setRules([{ match: /./, reply: 'Fine.' }]);
    const r = await client.chat({ model: 'chat', messages: user('summarize'), runId: RUN, taskId: 't1' });
    // 9 prompt tokens (4 cached), 48 reasoning + 2 visible completion tokens:
    // 5 x 1.1 + 4 x 0.275 + 50 x 4.4 = 5.5 + 1.1 + 220 = 226.6 millionths of a dollar.
    expect(r.usage).toEqual({ promptTokens: 9, completionTokens: 50, cachedTokens: 4, reasoningTokens: 48 });
    expect(r.costUsd).toBe('0.0002266000');
    expect(store.calls[0]).toMatchObject({ tokensCached: 4, tokensReasoning: 48, costUsd: '0.0002266000' });
  });
});
