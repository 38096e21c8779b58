import { describe, expect, it } from '@jest/globals';
import type { LedgerCallView } from '../queries/ledger-call-view.js';
import { renderCalls } from './render-calls.js';

const call: LedgerCallView = {
  id: 'c2',
  taskId: 'r:verify:hier:d:booookscore.0:0',
  stage: 'verify',
  system: 'hier',
  model: 'judge',
  modelId: 'qwen3-8b',
  kind: 'chat',
  status: 'cached',
  cacheHit: true,
  calls: 1,
  templateVersion: '1',
  createdAt: '2026-01-02T03:04:05.678Z',
  latencyMs: 3,
  attempts: 0,
  error: null,
  notes: ['sampled at 0'],
  tokensIn: 100,
  tokensCached: 50,
  tokensOut: 20,
  tokensReasoning: 8,
  costUsd: 0,
  listCostUsd: 0.000012,
  messages: [{ role: 'user', content: 'Judge it.\n\nNow.' }],
  params: { temperature: 0 },
  replies: [{ text: '{"1":{}}', reasoning: 'Hmm.', finishReason: 'stop' }],
  response: null,
  cachedFrom: [{ id: 'c1', runId: 'r0', taskId: 't0', createdAt: '2026-01-01T00:00:00.000Z' }],
};

describe('renderCalls', () => {
  it('prints each call whole: figures, cache source, prompt, reasoning and reply', () => {
    expect(renderCalls([call])).toBe(
      [
        'model calls: 1',
        '',
        '#1 hier verify r:verify:hier:d:booookscore.0:0',
        '    chat judge (qwen3-8b): cached, 0 attempts, 3 ms, $0.000000 (list $0.000012), 2026-01-02T03:04:05.678Z',
        '    tokens: 100 in (50 cached), 20 out (8 reasoning)',
        '    template version: 1',
        '    cache hit: replays call c1 (run r0, task t0, 2026-01-01T00:00:00.000Z)',
        '    note: sampled at 0',
        '    params: {"temperature":0}',
        '    [user]',
        '      Judge it.',
        '',
        '      Now.',
        '    [reasoning]',
        '      Hmm.',
        '    [reply]',
        '      {"1":{}}',
        '',
        '',
      ].join('\n'),
    );
  });
});
