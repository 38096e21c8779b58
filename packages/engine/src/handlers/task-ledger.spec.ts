import { describe, expect, it } from '@jest/globals';
import { DeferredLedger, type LlmCallRecord, MemoryLlmStore } from '@precis/llm';
import type { RunContext } from '../planner/run-context.js';
import { withTaskLedger, writeWithCalls } from './task-ledger.js';

const row = (taskId: string): LlmCallRecord => ({
  runId: null,
  taskId,
  model: 'judge',
  modelId: 'judge-1',
  kind: 'chat',
  cacheKey: `key-${taskId}`,
  cacheHit: false,
  templateVersion: null,
  request: {},
  response: { choices: [] },
  tokensIn: 1,
  tokensOut: 1,
  latencyMs: 1,
  costUsd: '0.0000000000',
  attempts: 1,
  error: null,
  calls: 1,
});

// A context whose model ledger shares the run's database (here: a memory store standing in).
function contextWith(store: MemoryLlmStore | null): RunContext {
  return {
    db: {},
    chat: store ? { deferLedger: () => new DeferredLedger(store) } : undefined,
  } as unknown as RunContext;
}

describe('withTaskLedger', () => {
  it("records the rows of a task that fails before writing them, and rethrows the task's error", async () => {
    const store = new MemoryLlmStore();
    await expect(
      withTaskLedger(contextWith(store), async (ledger) => {
        ledger!.add(row('t1'));
        throw new Error('judge endpoint gone');
      }),
    ).rejects.toThrow('judge endpoint gone');
    expect(store.calls.map((c) => c.taskId)).toEqual(['t1']);
  });

  it('does not record again the rows the task wrote with its result', async () => {
    const store = new MemoryLlmStore();
    const written: string[] = [];
    const out = await withTaskLedger(contextWith(store), async (ledger) => {
      ledger!.add(row('t2'));
      return writeWithCalls(ledger, async (calls) => {
        written.push(...calls.map((c) => c.taskId!));
        return 'done';
      });
    });
    expect(out).toBe('done');
    expect(written).toEqual(['t2']);
    expect(store.calls).toEqual([]);
  });

  it('without a shared ledger, hands the write no rows', async () => {
    const out = await withTaskLedger(contextWith(null), (ledger) =>
      writeWithCalls(ledger, async (calls) => calls.length),
    );
    expect(out).toBe(0);
  });
});
