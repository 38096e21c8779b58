import type { DataSource } from 'typeorm';
import { runBatchRows } from '../stores/run-batches.store.js';

// The provider batches a run's calls went into (issue 39), as `precis runs show` lists them.
export interface RunBatch {
  id: string;
  providerBatchId: string | null;
  // preparing, then the provider's: validating, in_progress, finalizing, completed, failed,
  // expired, cancelling, cancelled.
  status: string;
  requests: number;
  completed: number;
  failed: number;
  // Seconds since it was created, until it ended.
  ageSeconds: number;
  ended: boolean;
}

export interface RunBatches {
  batches: RunBatch[];
  // The run's calls parked and not yet in a batch (gathering), and its tasks waiting for batches.
  queuedCalls: number;
  waitingTasks: number;
}

export async function runBatches(db: DataSource, runId: string): Promise<RunBatches> {
  const { rows, counts } = await runBatchRows(db, runId);
  return {
    batches: rows.map((r) => ({
      id: String(r.id),
      providerBatchId: r.provider_batch_id === null ? null : String(r.provider_batch_id),
      status: String(r.status),
      requests: Number(r.requests),
      completed: Number(r.completed),
      failed: Number(r.failed),
      ageSeconds: Math.round(Number(r.age)),
      ended: Boolean(r.ended),
    })),
    queuedCalls: Number(counts.queued),
    waitingTasks: Number(counts.waiting),
  };
}

// 'batch_abc  completed  840 requests (838 answered, 2 failed), 4m 10s', one line per batch.
export function describeRunBatches(b: RunBatches): string[] {
  if (b.batches.length === 0 && b.queuedCalls === 0 && b.waitingTasks === 0) return [];
  const age = (s: number) => (s >= 60 ? `${Math.floor(s / 60)}m ${s % 60}s` : `${s}s`);
  return [
    `batches:  ${b.waitingTasks} tasks waiting, ${b.queuedCalls} calls gathering for the next batch`,
    ...b.batches.map(
      (x) =>
        `  ${(x.providerBatchId ?? `(${x.id.slice(0, 8)}, not sent yet)`).padEnd(24)} ${x.status.padEnd(11)} ${x.requests} requests (${x.completed} answered, ${x.failed} failed), ${x.ended ? 'took' : 'open for'} ${age(x.ageSeconds)}`,
    ),
  ];
}
