// Messages between PgliteSession (main thread) and pglite-worker.ts (the database's thread).

export interface WorkerOptions {
  // Directory of the database files; undefined = in memory.
  dataDir?: string;
  // A migrated database to start a new directory from (pglite-template.ts).
  templatePath?: string;
}

export type SessionCall =
  | { op: 'ready' | 'close' }
  | { op: 'query'; sql: string; params: unknown[] }
  | { op: 'exec'; sql: string };

export type SessionRequest = SessionCall & { id: number };

export type SessionReply =
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; error: Record<string, unknown> };
