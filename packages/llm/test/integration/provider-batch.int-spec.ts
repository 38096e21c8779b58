// A batch round against the fake server's Batch API through the openai client: input files
// uploaded and created, the state polled to its end, each call's answer or error by custom_id,
// expired calls told apart, cancel.
import { afterEach, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import OpenAI from 'openai';
import {
  batchInputFiles,
  batchResults,
  cancelBatch,
  ENDED_BATCH_STATUSES,
  type ProviderBatchState,
  readBatch,
  submitBatch,
} from '../../src/batch/provider-batch.js';

const servers: FakeLlmServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(batches: { delayMs?: number; expireShare?: number }) {
  const server = await startFakeLlmServer({ batches });
  servers.push(server);
  return { server, openai: new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 }) };
}

const calls = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    customId: `key-${i}`,
    body: { model: 'judge', messages: [{ role: 'user', content: `claim ${i}` }] },
  }));

async function untilEnded(openai: OpenAI, id: string): Promise<ProviderBatchState> {
  for (;;) {
    const state = await readBatch(openai, id);
    if (ENDED_BATCH_STATUSES.includes(state.status)) return state;
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('a provider batch round', () => {
  it('answers every call by its custom_id, one batch per input file', async () => {
    const { server, openai } = await start({ delayMs: 5 });
    const files = batchInputFiles(calls(5), '/v1/chat/completions', { maxRequests: 3, maxBytes: 1e6 });
    const answers = [];
    for (const [i, jsonl] of files.entries()) {
      const { batchId } = await submitBatch(openai, {
        jsonl,
        endpoint: '/v1/chat/completions',
        name: `round-${i}.jsonl`,
      });
      const state = await untilEnded(openai, batchId);
      expect([state.status, state.errors]).toEqual(['completed', []]);
      answers.push(...(await batchResults(openai, state)));
    }
    expect(
      answers.map((a) => [
        a.customId,
        a.ok && (a.body as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
      ]),
    ).toEqual(Array.from({ length: 5 }, (_, i) => [`key-${i}`, `echo: claim ${i}`]));
    expect(server.stats().batches).toMatchObject({
      filesUploaded: 2,
      batchesCreated: 2,
      requestsAnswered: 5,
    });
  });

  it('tells expired calls from refused ones', async () => {
    const { server, openai } = await start({ expireShare: 0.25 });
    server.injectFault({ kind: 'status', status: 400, message: 'context too long (fake)' }, 1);
    const [jsonl] = batchInputFiles(calls(4), '/v1/chat/completions', { maxRequests: 10, maxBytes: 1e6 });
    const { batchId } = await submitBatch(openai, {
      jsonl: jsonl!,
      endpoint: '/v1/chat/completions',
      name: 'x.jsonl',
    });
    const state = await untilEnded(openai, batchId);
    expect([state.status, state.counts]).toEqual(['expired', { total: 4, completed: 2, failed: 2 }]);
    const failed = (await batchResults(openai, state)).filter((r) => !r.ok);
    expect(failed).toEqual([
      { customId: 'key-0', ok: false, expired: false, status: 400, message: 'context too long (fake)' },
      {
        customId: 'key-3',
        ok: false,
        expired: true,
        status: null,
        message: 'This request could not be executed before the completion window expired.',
      },
    ]);
  });

  it('reports the provider refusing an input file, and cancels an open batch', async () => {
    const { openai } = await start({ delayMs: 30 });
    const { batchId } = await submitBatch(openai, {
      jsonl: '{"custom_id":"a"}\n',
      endpoint: '/v1/chat/completions',
      name: 'bad.jsonl',
    });
    const refused = await untilEnded(openai, batchId);
    expect([refused.status, refused.errors]).toEqual([
      'failed',
      ['line 1: invalid_request: A line needs custom_id, method POST and a body.'],
    ]);
    const [jsonl] = batchInputFiles(calls(2), '/v1/chat/completions', { maxRequests: 10, maxBytes: 1e6 });
    const open = await submitBatch(openai, {
      jsonl: jsonl!,
      endpoint: '/v1/chat/completions',
      name: 'c.jsonl',
    });
    expect(await cancelBatch(openai, open.batchId)).toBe('cancelling');
    expect((await untilEnded(openai, open.batchId)).status).toBe('cancelled');
  });
});
