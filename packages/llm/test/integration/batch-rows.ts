import { randomUUID } from 'node:crypto';
import type { LlmCallRecord } from '../../src/store/llm-store.js';

// The 'sent' ledger row a park writes for call `cacheKey` of `taskId` (outside any run).
export function parkedSentRow(cacheKey: string, taskId: string, costUsd = '0.0000010000'): LlmCallRecord {
  return {
    id: randomUUID(),
    status: 'sent',
    batched: true,
    runId: null,
    taskId,
    model: 'judge',
    modelId: 'judge',
    kind: 'chat',
    cacheKey,
    cacheHit: false,
    templateVersion: null,
    request: {},
    response: null,
    tokensIn: 10,
    tokensOut: 0,
    latencyMs: 0,
    costUsd,
    attempts: 0,
    error: null,
    calls: 1,
  };
}
