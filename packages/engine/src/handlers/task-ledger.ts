import type { DeferredLedger, LlmCallRecord } from '@precis/llm';
import type { RunContext } from '../planner/run-context.js';

// Runs a task's work with a ledger for its model calls when the model's call ledger is in the
// run's database: the task then writes the rows in the statement that stores its result (one
// round trip, and the row commits with the result it led to) instead of each call writing its
// own before it returns. Rows the task did not write (an error before or in that statement) are
// recorded on the way out, so no call goes unrecorded.
export async function withTaskLedger<T>(
  ctx: RunContext,
  work: (ledger: DeferredLedger | undefined) => Promise<T>,
): Promise<T> {
  const ledger = ctx.chat?.deferLedger?.(ctx.db) ?? undefined;
  try {
    return await work(ledger);
  } finally {
    await ledger?.flush();
  }
}

// `write` with the ledger's unwritten rows ([] without a ledger), which count as written once it
// resolves.
export function writeWithCalls<T>(
  ledger: DeferredLedger | undefined,
  write: (calls: readonly LlmCallRecord[]) => Promise<T>,
): Promise<T> {
  return ledger ? ledger.writeWith(write) : write([]);
}
