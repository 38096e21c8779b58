import { type Run, type RunHeadline, RunStatus, type RunUsage } from '@precis/contracts';
import type { RunEntity } from '@precis/db';
import type { RunHeadline as EngineHeadline, RunBatches, StageCounts, UsageSoFar } from '@precis/engine';

const STATUS: Record<RunEntity['status'], RunStatus> = {
  pending: RunStatus.RUN_STATUS_PENDING,
  running: RunStatus.RUN_STATUS_RUNNING,
  completed: RunStatus.RUN_STATUS_COMPLETED,
  failed: RunStatus.RUN_STATUS_FAILED,
  stopped: RunStatus.RUN_STATUS_STOPPED,
  'completed-with-failures': RunStatus.RUN_STATUS_COMPLETED_WITH_FAILURES,
  interrupted: RunStatus.RUN_STATUS_INTERRUPTED,
  cancelled: RunStatus.RUN_STATUS_CANCELLED,
};

export function toProtoRunStatus(status: RunEntity['status']): RunStatus {
  return STATUS[status] ?? RunStatus.RUN_STATUS_UNSPECIFIED;
}

export function fromProtoRunStatus(status: RunStatus | undefined): RunEntity['status'] | null {
  for (const [name, value] of Object.entries(STATUS))
    if (value === status) return name as RunEntity['status'];
  return null;
}

const COUNTED = ['done', 'failed', 'cancelled', 'open'] as const;

// task_counts holds the totals by state ("done", "failed" (failed + dead), "cancelled" (ended with
// their run), "open" (queued + running)) and the same per stage as "<stage>.<state>" plus "<stage>.total".
export function taskCountsMap(counts: Record<string, StageCounts>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [stage, c] of Object.entries(counts)) {
    out[`${stage}.total`] = c.total;
    for (const k of COUNTED) {
      out[`${stage}.${k}`] = c[k];
      out[k] = (out[k] ?? 0) + c[k];
    }
  }
  return out;
}

// The ledger's figures less the cost (Run.cost_usd and reserved_usd carry it).
export function toProtoUsage(u: UsageSoFar): RunUsage {
  return {
    calls: u.calls,
    cacheHits: u.cacheHits,
    repeated: u.repeated,
    tokensIn: u.tokensIn,
    tokensOut: u.tokensOut,
    tokensCached: u.tokensCached,
    tokensReasoning: u.tokensReasoning,
    batch: u.batch ?? { calls: 0, costUsd: 0, savedUsd: 0, resent: 0 },
  };
}

export interface RunExtras {
  taskCounts?: Record<string, number>;
  // The whole usage (GetRun), or only the cost figures (a listed run).
  usage?: UsageSoFar;
  cost?: Pick<UsageSoFar, 'costUsd' | 'reservedUsd'>;
  blockedBy?: string;
  headline?: EngineHeadline | null;
  cachedFailedTasks?: number;
  batches?: RunBatches;
}

const datasetsOf = (run: RunEntity): string[] =>
  ((run.spec as { datasets?: { name?: unknown }[] }).datasets ?? []).map((d) => String(d.name));

const toProtoHeadline = (h: EngineHeadline | null | undefined): RunHeadline | undefined =>
  h ? { ...h } : undefined;

export function toProtoRun(run: RunEntity, extra: RunExtras = {}): Run {
  const cost = extra.cost ?? extra.usage;
  return {
    id: run.id,
    name: run.name,
    status: toProtoRunStatus(run.status),
    specJson: JSON.stringify(run.spec),
    specSha256: run.specSha256,
    costLimitUsd: run.costLimitUsd === null ? undefined : Number(run.costLimitUsd),
    error: run.error ?? '',
    createTime: run.createdAt,
    updateTime: run.updatedAt,
    startTime: run.startedAt ?? undefined,
    finishTime: run.finishedAt ?? undefined,
    taskCounts: extra.taskCounts ?? {},
    costUsd: cost?.costUsd ?? 0,
    blockedBy: extra.blockedBy ?? '',
    usage: extra.usage ? toProtoUsage(extra.usage) : undefined,
    reservedUsd: cost?.reservedUsd ?? 0,
    datasets: datasetsOf(run),
    headline: toProtoHeadline(extra.headline),
    cachedFailedTasks: extra.cachedFailedTasks ?? 0,
    batches: extra.batches
      ? {
          ...extra.batches,
          batches: extra.batches.batches.map((b) => ({ ...b, providerBatchId: b.providerBatchId ?? '' })),
        }
      : undefined,
  };
}
