import { DocumentEntity, RunEntity, SummaryEntity, type TaskEntity } from '@precis/db';
import { planStrategy, StrategyError } from '@precis/strategies';
import { splitSentences } from '@precis/text';
import { In } from 'typeorm';
import { scoreTaskId, summarizeTaskId, summaryId, verifyTaskId } from '../ids.js';
import { DimensionPlanner, planDatasetSystems } from '../opinion/dimension-planner.js';
import { OPINION_STEP_KEY, opinionSummaryTask } from '../opinion/opinion-summary.js';
import { type BenchmarkSpec, isBooookScoreMetric, isGeneratedSystem } from '../spec/benchmark-spec.schema.js';
import type { SummarizeStepResult } from '../tasks/task-payloads.js';
import { FINISHED, insertTasks, loadRunTasks, type NewTask } from '../tasks/task-store.js';
import { strategyTemplates } from '../templates/run-templates.js';
import { documentChunks } from './document-chunks.js';
import type { RunContext } from './run-context.js';
import { producerOf, strategyParams } from './strategy-params.js';

export interface RunProgress {
  runId: string;
  status: RunEntity['status'];
  summaries: { expected: number; done: number; failed: number };
  tasks: Record<string, { total: number; done: number; failed: number }>;
  dispatched: number;
  error: string | null;
}

async function documentText(ctx: RunContext, id: string): Promise<string> {
  const rows: { text: string }[] = await ctx.db.query('SELECT text FROM documents WHERE id = $1', [id]);
  if (!rows[0]) throw new Error(`document ${id} no longer exists`);
  return rows[0].text;
}

// A run's documents without their text: the planner runs after every finished task, and a
// book's text is only needed (once per process) to chunk it.
export type RunDocument = Omit<DocumentEntity, 'text'>;

export async function runDocuments(ctx: RunContext, spec: BenchmarkSpec): Promise<RunDocument[]> {
  const docs: RunDocument[] = [];
  for (const d of spec.datasets) {
    const rows = await ctx.db
      .getRepository(DocumentEntity)
      .createQueryBuilder('d')
      .innerJoin('datasets', 'ds', 'ds.id = d.dataset_id')
      .select(['d.id', 'd.datasetId', 'd.externalId', 'd.ordinal', 'd.title', 'd.data', 'd.metadata'])
      .where('ds.name = :name', { name: d.name })
      .orderBy('d.ordinal', 'ASC')
      .getMany();
    let selected = d.documents ? rows.filter((r) => d.documents!.includes(r.externalId)) : rows;
    if (d.limit !== undefined) selected = selected.slice(0, d.limit);
    docs.push(...selected);
  }
  return docs;
}

async function spentUsd(ctx: RunContext, runId: string): Promise<number> {
  const rows = await ctx.db.query(
    'SELECT COALESCE(SUM(cost_usd), 0) AS spent FROM llm_calls WHERE run_id = $1',
    [runId],
  );
  return Number(rows[0]?.spent ?? 0);
}

async function setRunStatus(
  ctx: RunContext,
  run: RunEntity,
  status: RunEntity['status'],
  error: string | null,
) {
  // Only an open run changes state: a run cancelled meanwhile stays cancelled.
  const res = await ctx.db
    .getRepository(RunEntity)
    .update({ id: run.id, status: In(['pending', 'running']) }, { status, error, finishedAt: new Date() });
  if (res.affected === 0) {
    const current = await ctx.db.getRepository(RunEntity).findOneByOrFail({ id: run.id });
    run.status = current.status;
    run.error = current.error;
    return;
  }
  run.status = status;
  run.error = error;
}

// The planner's single entry point, safe to call any number of times: it reads what exists,
// creates the tasks that are now ready (idempotently, by natural key), dispatches them, and
// moves the run to completed when the score task is done. With `redispatch`, unfinished tasks
// are put on the bus again (after a restart, an in-process queue is empty).
export async function advanceRun(
  ctx: RunContext,
  runId: string,
  opts: { redispatch?: boolean } = {},
): Promise<RunProgress> {
  const run = await ctx.db.getRepository(RunEntity).findOneByOrFail({ id: runId });
  const spec = run.spec as unknown as BenchmarkSpec;
  const tasks = await loadRunTasks(ctx.db, runId);
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const counts = { expected: 0, done: 0, failed: 0 };
  const progress = (dispatched: number): RunProgress => summarizeProgress(run, tasks, counts, dispatched);

  if (run.status !== 'running' && run.status !== 'pending') return progress(0);
  if (run.costLimitUsd !== null) {
    const spent = await spentUsd(ctx, runId);
    if (spent >= Number(run.costLimitUsd)) {
      await setRunStatus(
        ctx,
        run,
        'stopped',
        `cost limit reached: $${spent.toFixed(4)} spent of the $${Number(run.costLimitUsd)} limit`,
      );
      ctx.logger.warn('run stopped at its cost limit', { runId, spent });
      return progress(0);
    }
  }

  const docs = await runDocuments(ctx, spec);
  const newTasks: NewTask[] = [];
  const existingSummaries = new Set(
    (await ctx.db.getRepository(SummaryEntity).find({ select: { id: true }, where: { runId } })).map(
      (s) => s.id,
    ),
  );
  const generated = spec.systems.filter(isGeneratedSystem);
  counts.expected = generated.length * docs.length;
  const dimensions = new DimensionPlanner(runId, spec, byId);

  for (const system of generated) {
    let params: ReturnType<typeof strategyParams>;
    try {
      params = strategyParams(system, ctx.modelInfo);
    } catch (err) {
      await setRunStatus(ctx, run, 'failed', (err as Error).message);
      return progress(0);
    }
    for (const doc of docs) {
      const prefix = summarizeTaskId(runId, system.name, doc.id, '');
      const results = new Map<string, string>();
      let failed: TaskEntity | undefined;
      for (const t of tasks) {
        if (!t.id.startsWith(prefix)) continue;
        if (t.status === 'done')
          results.set(t.id.slice(prefix.length), (t.result as SummarizeStepResult).text);
        else if (t.status === 'failed' || t.status === 'dead') failed = t;
      }
      if (failed) {
        counts.failed++;
        continue;
      }
      let plan: ReturnType<typeof planStrategy>;
      try {
        if (system.strategy === 'opinion') {
          const text = results.get(OPINION_STEP_KEY);
          if (text === undefined) {
            const t = opinionSummaryTask(runId, system, doc.id, spec.templateOverrides);
            if (!byId.has(t.id)) newTasks.push(t);
            continue;
          }
          plan = { status: 'done', summary: text, finalKey: OPINION_STEP_KEY };
        } else {
          const chunks = await documentChunks(doc.id, system.params.chunkSize, system.params.encoding, () =>
            documentText(ctx, doc.id),
          );
          plan = planStrategy(system.strategy, {
            chunks,
            results,
            params,
            templates: strategyTemplates(spec.templateOverrides),
          });
        }
      } catch (err) {
        if (!(err instanceof StrategyError)) throw err;
        await setRunStatus(
          ctx,
          run,
          'failed',
          `system ${system.name}, document ${doc.externalId}: ${err.message}`,
        );
        return progress(0);
      }
      if (plan.status === 'steps') {
        for (const step of plan.steps) {
          const id = summarizeTaskId(runId, system.name, doc.id, step.key);
          if (byId.has(id)) continue;
          newTasks.push({
            id,
            runId,
            stage: 'summarize',
            kind: 'summary-step',
            payload: {
              type: 'summary-step',
              system: system.name,
              documentId: doc.id,
              step: {
                key: step.key,
                role: step.role,
                templateId: step.template.id,
                templateVersion: step.template.version,
                vars: step.vars,
                budgetWords: step.budgetWords,
                input: step.input,
                level: step.level,
                index: step.index,
                promptTokens: step.promptTokens,
              },
            },
          });
        }
        continue;
      }
      counts.done++;
      const sid = summaryId(runId, system.name, doc.id);
      if (!existingSummaries.has(sid)) {
        await ctx.db
          .createQueryBuilder()
          .insert()
          .into(SummaryEntity)
          .values({
            id: sid,
            runId,
            system: system.name,
            documentId: doc.id,
            text: plan.summary,
            finalStep: plan.finalKey,
            producer: producerOf(system),
          })
          .orIgnore()
          .execute();
      }
      const sentences = splitSentences(plan.summary);
      newTasks.push(...dimensions.tasksFor(system.name, doc.id, sid));
      spec.metrics.forEach((metric, metricIndex) => {
        if (!isBooookScoreMetric(metric)) return;
        const size = metric.mode === 'sentence' ? 1 : metric.batchSize;
        for (let start = 0, batch = 0; start < sentences.length; start += size, batch++) {
          const id = verifyTaskId(runId, system.name, doc.id, `${metric.name}.${metricIndex}`, batch);
          if (byId.has(id)) continue;
          newTasks.push({
            id,
            runId,
            stage: 'verify',
            kind: 'booookscore-batch',
            payload: {
              type: 'booookscore-batch',
              system: system.name,
              documentId: doc.id,
              summaryId: sid,
              metricIndex,
              sentences: sentences.slice(start, start + size).map((text, i) => ({ n: start + i + 1, text })),
            },
          });
        }
      });
    }
  }

  const fromDataset = await planDatasetSystems(ctx, runId, spec, docs, existingSummaries, dimensions);
  if (fromDataset.error !== null) {
    await setRunStatus(ctx, run, 'failed', fromDataset.error);
    return progress(0);
  }
  counts.expected += fromDataset.expected;
  counts.done += fromDataset.done;
  newTasks.push(...fromDataset.tasks);

  const allSummariesSettled = counts.done + counts.failed === counts.expected;
  const verifyOpen =
    tasks.some((t) => t.stage === 'verify' && !FINISHED.includes(t.status)) ||
    newTasks.some((t) => t.stage === 'verify');
  const scoreId = scoreTaskId(runId);
  const scoreTask = byId.get(scoreId);
  if (allSummariesSettled && !verifyOpen && newTasks.length === 0) {
    if (!scoreTask) {
      newTasks.push({
        id: scoreId,
        runId,
        stage: 'score',
        kind: 'score-run',
        payload: { type: 'score-run' },
      });
    } else if (scoreTask.status === 'done') {
      await setRunStatus(ctx, run, 'completed', null);
      return progress(0);
    } else if (scoreTask.status === 'failed' || scoreTask.status === 'dead') {
      await setRunStatus(ctx, run, 'failed', `scoring failed: ${scoreTask.error ?? 'unknown error'}`);
      return progress(0);
    }
  }

  const inserted = newTasks.length ? await insertTasks(ctx.db, newTasks) : [];
  const insertedSet = new Set(inserted);
  let dispatched = 0;
  for (const t of newTasks) {
    if (!insertedSet.has(t.id)) continue;
    await ctx.dispatcher.dispatch(t.stage, t.id, runId);
    dispatched++;
  }
  if (opts.redispatch) {
    for (const t of tasks) {
      if (FINISHED.includes(t.status)) continue;
      await ctx.dispatcher.dispatch(t.stage as 'summarize' | 'verify' | 'score', t.id, runId);
      dispatched++;
    }
  }
  if (run.status === 'pending') {
    await ctx.db
      .getRepository(RunEntity)
      .update({ id: runId, status: 'pending' }, { status: 'running', startedAt: new Date() });
    run.status = 'running';
  }
  for (const t of newTasks)
    if (insertedSet.has(t.id)) tasks.push({ ...t, status: 'queued', result: null } as unknown as TaskEntity);
  return progress(dispatched);
}

function summarizeProgress(
  run: RunEntity,
  tasks: TaskEntity[],
  summaries: RunProgress['summaries'],
  dispatched: number,
): RunProgress {
  const byStage: RunProgress['tasks'] = {};
  for (const t of tasks) {
    const s = byStage[t.stage] ?? { total: 0, done: 0, failed: 0 };
    byStage[t.stage] = s;
    s.total++;
    if (t.status === 'done') s.done++;
    else if (t.status === 'failed' || t.status === 'dead') s.failed++;
  }
  return {
    runId: run.id,
    status: run.status,
    summaries: { ...summaries },
    tasks: byStage,
    dispatched,
    error: run.error,
  };
}
