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
    expect(store.calls[0]).toMatchObject({ status: 'error', tokensIn: 9, tokensOut: 3, costUsd: '0.0000031500' });
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
});
