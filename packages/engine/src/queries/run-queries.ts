import { DocumentEntity, JudgmentEntity, RunEntity, SummaryEntity, TaskEntity, toNumber } from '@precis/db';
import { type DataSource, In, Like } from 'typeorm';
import type { FamilyRegistry } from '../family/family-registry.js';
import { openOf, runCounts } from '../planner/run-progress.js';
import { type TraceStep, traceStepKey } from '../report/render-trace.js';
import { sortSteps } from '../report/step-order.js';
import type { BenchmarkSpec } from '../spec/benchmark-spec.schema.js';
import { datasetExternalIds } from '../stores/documents.store.js';
import { runUsageRow, systemCostRows } from '../stores/ledger.store.js';
import { runIdsByPrefix } from '../stores/runs.store.js';
import type { SummaryTaskPayload, SummaryTaskResult } from '../tasks/task-payloads.js';

export class RunNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RunNotFoundError';
  }
}

// Accepts a full run id or an unambiguous prefix (as printed by `runs ls`).
export async function findRun(db: DataSource, ref: string): Promise<RunEntity> {
  const trimmed = ref.trim().toLowerCase();
  if (!/^[0-9a-f-]{4,36}$/.test(trimmed))
    throw new RunNotFoundError(
      `"${ref}" is not a run id (expected a UUID or its first characters; see \`precis runs ls\`)`,
    );
  const rows = await runIdsByPrefix(db, trimmed);
  if (rows.length === 0) throw new RunNotFoundError(`no run ${ref} (see \`precis runs ls\`)`);
  if (rows.length > 1) throw new RunNotFoundError(`run id prefix ${ref} is ambiguous: give more characters`);
  return db.getRepository(RunEntity).findOneByOrFail({ id: rows[0].id });
}

export interface StageCounts {
  total: number;
  done: number;
  // failed or dead
  failed: number;
  // ended with their run before they finished (it was stopped, cancelled or failed)
  cancelled: number;
  // queued or running
  open: number;
}

// What the run paid for: every ledger row, repeats after faults included.
export interface UsageSoFar {
  calls: number;
  cacheHits: number;
  // Calls asked again by the same task (after a killed worker, a model error or an outage).
  repeated: number;
  tokensIn: number;
  // Output tokens, reasoning included.
  tokensOut: number;
  // Prompt tokens the provider served from its prompt cache (part of tokensIn).
  tokensCached: number;
  // Reasoning tokens (part of tokensOut).
  tokensReasoning: number;
  // Spent: the settled calls at their real cost, a figure that only grows while the run goes on.
  costUsd: number;
  // Reserved by calls sent and not settled yet (in flight, or left 'sent' by a killed process);
  // each settles at its real cost, usually lower. The cost limit counts both (run_costs).
  reservedUsd: number;
  // Calls sent through provider batches (limits.batch; waiting ones included), what the settled
  // ones cost, what they would have cost more online, and how often a call went into another
  // batch (its batch expired, or failed it transiently).
  batch?: { calls: number; costUsd: number; savedUsd: number; resent: number };
}

// Tasks per stage, from the run's counters (one indexed read, whatever the run's size).
export async function stageCounts(db: DataSource, runId: string): Promise<Record<string, StageCounts>> {
  const { tasks } = await runCounts(db, runId);
  return Object.fromEntries(Object.entries(tasks).map(([stage, c]) => [stage, { ...c, open: openOf(c) }]));
}

export async function usageSoFar(db: DataSource, runId: string): Promise<UsageSoFar> {
  const r = await runUsageRow(db, runId);
  return {
    calls: toNumber(r.calls),
    cacheHits: toNumber(r.hits),
    repeated: toNumber(r.repeated),
    tokensIn: toNumber(r.tin),
    tokensOut: toNumber(r.tout),
    tokensCached: toNumber(r.tcached),
    tokensReasoning: toNumber(r.treasoning),
    costUsd: Number(r.cost),
    reservedUsd: Number(r.reserved),
    batch: {
      calls: toNumber(r.bcalls),
      costUsd: Number(r.bcost),
      savedUsd: Number(r.bsaved),
      resent: toNumber(r.bresent),
    },
  };
}

// What each system's model and plugin calls cost (task ids are `<run>:<stage>:<system>:...`;
// calls of the run-wide score task count for no system).
export async function systemCosts(db: DataSource, runId: string): Promise<Record<string, number>> {
  const rows = await systemCostRows(db, runId);
  return Object.fromEntries(rows.filter((r) => r.system).map((r) => [r.system, Number(r.cost)]));
}

export async function listRuns(db: DataSource, limit = 50): Promise<RunEntity[]> {
  return db.getRepository(RunEntity).find({ order: { createdAt: 'DESC', id: 'ASC' }, take: limit });
}

// One document of a run's datasets, by external id or document id (the first dataset's when
// several datasets hold that external id).
export async function findRunDocument(
  db: DataSource,
  run: RunEntity,
  documentRef: string,
): Promise<DocumentEntity> {
  const spec = run.spec as unknown as BenchmarkSpec;
  const names = spec.datasets.map((d) => d.name);
  const docs = await db
    .getRepository(DocumentEntity)
    .createQueryBuilder('d')
    .innerJoin('datasets', 'ds', 'ds.id = d.dataset_id')
    .where('ds.name IN (:...names)', { names })
    .andWhere('(d.external_id = :ref OR d.id::text = :ref)', { ref: documentRef })
    .orderBy('ds.name', 'ASC')
    .addOrderBy('d.ordinal', 'ASC')
    .getMany();
  if (docs.length === 0) {
    const known = await datasetExternalIds(db, names);
    const list = known.slice(0, 5).join(', ');
    throw new RunNotFoundError(
      `run ${run.id} has no document "${documentRef}"; give a document's external id, e.g. ${list}${known.length > 5 ? ', ...' : ''}`,
    );
  }
  return docs[0]!;
}

// Every stored step of each system for one document (by external id or document id), in the
// order its strategy gives them.
export async function loadTraces(
  families: FamilyRegistry,
  db: DataSource,
  run: RunEntity,
  documentRef: string,
): Promise<{
  document: DocumentEntity;
  systems: { system: string; strategy: string; steps: TraceStep[] }[];
}> {
  const spec = run.spec as unknown as BenchmarkSpec;
  const document = await findRunDocument(db, run, documentRef);
  const tasks = await db
    .getRepository(TaskEntity)
    .createQueryBuilder('t')
    .where('t.run_id = :runId', { runId: run.id })
    .andWhere('t.stage = :stage', { stage: 'summarize' })
    .andWhere('t.id LIKE :pattern', { pattern: `${run.id}:summarize:%:${document.id}:%` })
    // Planned order first (a chain of steps, say); the strategy's stepOrder then sorts by its ranks.
    .orderBy('t.createdAt', 'ASC')
    .addOrderBy('t.id', 'ASC')
    .getMany();
  return {
    document,
    systems: spec.systems.map((s) => {
      const strategy = families.strategies.get(s.strategy);
      return {
        system: s.name,
        strategy: s.strategy,
        steps: sortSteps(
          tasks
            .filter((t) => (t.payload as unknown as SummaryTaskPayload).system === s.name)
            .map((t) => ({
              taskId: t.id,
              status: t.status,
              payload: t.payload as unknown as SummaryTaskPayload,
              result: t.result as SummaryTaskResult | null,
              error: t.error,
            })),
          traceStepKey,
          strategy?.stepOrder?.bind(strategy),
        ),
      };
    }),
  };
}

// A document's summaries in a run and the judgments of them whose metric starts with
// `metricPrefix` (what a family's trace shows), summaries by system.
export async function documentJudgments(
  db: DataSource,
  runId: string,
  documentId: string,
  metricPrefix: string,
): Promise<{ summary: SummaryEntity; judgments: JudgmentEntity[] }[]> {
  const summaries = await db
    .getRepository(SummaryEntity)
    .find({ where: { runId, documentId }, order: { system: 'ASC' } });
  if (summaries.length === 0) return [];
  const judgments = await db.getRepository(JudgmentEntity).find({
    where: { summaryId: In(summaries.map((s) => s.id)), metric: Like(`${metricPrefix}%`) },
    order: { metric: 'ASC', unit: 'ASC' },
  });
  return summaries.map((summary) => ({
    summary,
    judgments: judgments.filter((j) => j.summaryId === summary.id),
  }));
}
