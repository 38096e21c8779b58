import { describe, expect, it } from '@jest/globals';
import { cachedKeys, type LedgerRow, replyParts, requestParts, toCallView } from './ledger-call-view.js';

const RUN = '11111111-2222-4333-8444-555555555555';

function row(over: Partial<LedgerRow> = {}): LedgerRow {
  return {
    id: 'c1',
    run_id: RUN,
    task_id: `${RUN}:verify:hier:doc-1:booookscore.0:0`,
    model: 'judge',
    model_id: 'qwen3-8b',
    kind: 'chat',
    status: 'ok',
    cache_hit: false,
    calls: 1,
    template_version: '1',
    created_at: new Date('2026-01-02T03:04:05.678Z'),
    latency_ms: 12,
    attempts: 1,
    error: null,
    notes: ['sampled at 0'],
    tokens_in: '100',
    tokens_cached: 0,
    tokens_out: 20,
    tokens_reasoning: 8,
    cost_usd: '0.0000120000',
    list_cost_usd: '0.0000120000',
    request: { model: 'qwen3-8b', temperature: 0, messages: [{ role: 'user', content: 'Judge it.' }] },
    response: {
      choices: [
        { index: 0, finish_reason: 'stop', message: { content: '<think>\nHmm.\n</think>\n\n{"1":{}}' } },
      ],
    },
    ...over,
  };
}

describe('a ledger row as a transcript shows it', () => {
  it('splits a <think> block from the answer and keeps the raw body', () => {
    const view = toCallView(row(), []);
    expect(view).toMatchObject({
      stage: 'verify',
      system: 'hier',
      createdAt: '2026-01-02T03:04:05.678Z',
      tokensIn: 100,
      costUsd: 0.000012,
      notes: ['sampled at 0'],
      messages: [{ role: 'user', content: 'Judge it.' }],
      params: { model: 'qwen3-8b', temperature: 0 },
      replies: [{ text: '{"1":{}}', reasoning: 'Hmm.', finishReason: 'stop' }],
      cachedFrom: [],
    });
    expect(view.response).toEqual(row().response);
  });

  it('reads reasoning from a message field, and an unclosed <think> as reasoning only', () => {
    const body = {
      choices: [
        { index: 1, finish_reason: 'length', message: { content: '<think>still thinking' } },
        { index: 0, finish_reason: 'stop', message: { content: 'Yes.', reasoning_content: 'Because.' } },
      ],
    };
    expect(replyParts(body, 'm')).toEqual([
      { text: 'Yes.', reasoning: 'Because.', finishReason: 'stop' },
      { text: '', reasoning: 'still thinking', finishReason: 'length' },
    ]);
  });

  it("shows a cache hit's prompt and replies from the calls that filled it", () => {
    const hit = row({
      id: 'hit',
      cache_hit: true,
      status: 'cached',
      request: { cachedAs: ['k0', 'k1'], samples: [0, 1] },
      response: null,
      calls: 2,
    });
    expect(cachedKeys(hit.request)).toEqual(['k0', 'k1']);
    const filler = (id: string, reply: string) => ({
      id,
      run_id: null,
      task_id: 'other-task',
      created_at: '2025-12-31T00:00:00.000Z',
      request: row().request,
      response: { choices: [{ index: 0, finish_reason: 'stop', message: { content: reply } }] },
    });
    const view = toCallView(hit, [filler('f0', 'A'), filler('f1', 'B')]);
    expect([view.messages, view.replies.map((r) => r.text), view.calls]).toEqual([
      [{ role: 'user', content: 'Judge it.' }],
      ['A', 'B'],
      2,
    ]);
    expect(view.cachedFrom).toEqual([
      { id: 'f0', runId: null, taskId: 'other-task', createdAt: '2025-12-31T00:00:00.000Z' },
      { id: 'f1', runId: null, taskId: 'other-task', createdAt: '2025-12-31T00:00:00.000Z' },
    ]);
    expect(Array.isArray(view.response)).toBe(true);
  });

  it('shows embedding inputs as messages and vectors by their length; masks secret-looking params', () => {
    const view = toCallView(
      row({
        kind: 'embedding',
        request: { model: 'e', input: ['a text'], api_key: 'sk-abcdefghijklmnop0123456789' },
        response: { data: [{ index: 0, embedding: [0.1, 0.2, 0.3] }] },
      }),
      [],
    );
    expect([view.messages, view.replies, view.response]).toEqual([
      [{ role: 'input', content: 'a text' }],
      [],
      { data: [{ index: 0, embedding: '<3 numbers>' }] },
    ]);
    expect(view.params).toEqual({ model: 'e', api_key: '[redacted: looks like a secret]' });
    expect(requestParts(null)).toEqual({ messages: [], params: {} });
  });
});
