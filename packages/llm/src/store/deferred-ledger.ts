import type { LlmCallRecord, LlmStore } from './llm-store.js';

// The ledger rows of one task's calls, held back so that the task writes them in the statement
// that stores its result: a call's row and the result it led to commit together, in one round
// trip instead of two. A call made with `ledger` (ChatRequest.ledger) resolves once its row is
// added here rather than once it is written.
//
// Only the task's last calls are held back: a call made with a ledger that holds rows first has
// them written (flush), so when a task re-asks after a reply it could not use, the first call is
// durable, and served from the cache, should the process die before the second one returns.
//
// The task writes the rows with writeWith(). flush() gives every row not written that way to the
// store, so a task that stops before its statement (a transient error, a failed statement) still
// records each call it made.
export class DeferredLedger {
  private rows: LlmCallRecord[] = [];

  constructor(private readonly store: LlmStore) {}

  add(row: LlmCallRecord): void {
    this.rows.push(row);
  }

  // Runs the caller's statement with the rows not yet written; they count as written once it
  // resolves (a statement that fails leaves them to flush()).
  async writeWith<T>(statement: (rows: readonly LlmCallRecord[]) => Promise<T>): Promise<T> {
    const rows = [...this.rows];
    const out = await statement(rows);
    const done = new Set(rows);
    this.rows = this.rows.filter((r) => !done.has(r));
    return out;
  }

  async flush(): Promise<void> {
    const rows = this.rows;
    this.rows = [];
    await Promise.all(rows.map((row) => this.store.record(row)));
  }
}
