import { AsyncLocalStorage } from 'node:async_hooks';
import type { LlmCallRecord } from './llm-store.js';

// Inside a task's scope, the records that settle its calls wait to ride on the task's next
// statement (its next call's 'sent' row, or the statement that finishes the task) instead of an
// INSERT of their own: one statement less per call. A worker that dies in between leaves the
// call's 'sent' row (the ledger shows it sent, unanswered), as one dying mid-request does.
interface LedgerScope {
  taskId: string;
  rows: LlmCallRecord[];
  // The work returned (or threw) while a call it started may still run (Promise.all rejects at
  // the first failure): that call's record is written on its own then, not held.
  closed: boolean;
  // Writes rows still held when the task's work ends (set by the store that held them).
  write: ((rows: readonly LlmCallRecord[]) => Promise<void>) | null;
}

const scopes = new AsyncLocalStorage<LedgerScope>();

// Runs a task's work in a scope; records still held when it ends are written before this returns
// (also when the work failed: the calls were made and paid for).
export async function withLedgerScope<T>(taskId: string, work: () => Promise<T>): Promise<T> {
  const scope: LedgerScope = { taskId, rows: [], closed: false, write: null };
  const writeLeft = () =>
    writeTaken(scope, async (rows) => {
      if (rows.length > 0 && scope.write) await scope.write(rows);
    });
  let result: T;
  try {
    result = await scopes.run(scope, work);
  } catch (err) {
    scope.closed = true;
    // The work's error is what the caller acts on (a redelivery when the database is down).
    await writeLeft().catch(() => undefined);
    throw err;
  }
  scope.closed = true;
  await writeLeft();
  return result;
}

// Takes what the scope holds (at once, in the caller's context) and gives it to `write`, the
// statement that writes it; when that fails the rows go back to wait for the next.
async function writeTaken<T>(
  scope: LedgerScope | undefined,
  write: (rows: readonly LlmCallRecord[]) => Promise<T>,
): Promise<T> {
  const rows = scope ? scope.rows.splice(0) : [];
  try {
    return await write(rows);
  } catch (err) {
    scope?.rows.unshift(...rows);
    throw err;
  }
}

// The scope a record of this task may wait in, if its work runs in one.
export function ledgerScopeOf(taskId: string | null): {
  hold(row: LlmCallRecord, write: LedgerScope['write']): void;
  holding(): boolean;
  writeHeld<T>(write: (rows: readonly LlmCallRecord[]) => Promise<T>): Promise<T>;
} | null {
  const scope = scopes.getStore();
  if (!scope || scope.closed || taskId === null || scope.taskId !== taskId) return null;
  return {
    hold(row, write) {
      scope.rows.push(row);
      scope.write ??= write;
    },
    holding: () => scope.rows.length > 0,
    writeHeld: (write) => writeTaken(scope, write),
  };
}

// For a statement that finishes the current task: `write` gets the records its scope holds (none
// outside a scope) to write with it.
export function withHeldLedger<T>(write: (rows: readonly LlmCallRecord[]) => Promise<T>): Promise<T> {
  return writeTaken(scopes.getStore(), write);
}
