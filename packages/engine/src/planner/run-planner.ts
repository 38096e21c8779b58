import { RunEntity, SummaryEntity } from '@precis/db';
import { In } from 'typeorm';
import type { MetricPlanning, SettledSummary, Strategy } from '../family/benchmark-family.js';
import { ConfigurationError } from '../handlers/templates.js';
import { SYSTEM_SCOPE, scoreTaskId, unitKey, unitOfTaskId } from '../ids.js';
import { runHeadline } from '../queries/run-list.js';
import { loadFullRunReport } from '../report/render-run-report.js';
import { type BenchmarkSpec, isGeneratedSystem, type SystemSpec } from '../spec/benchmark-spec.schema.js';
import { documentTexts } from '../stores/documents.store.js';
import { setExpectedSummaries } from '../stores/runs.store.js';
import { firstFailedTask, openRunTasks, storeRunHeadline, taskError } from '../stores/tasks.store.js';
import { insertTasks, type NewTask } from '../tasks/task-store.js';
import { planUnit, settled, type UnitPlan, type UnitState } from './plan-unit.js';
import type { RunContext } from './run-context.js';
import { type RunDocument, runDocuments } from './run-documents.js';
import {
  failedTasks,
  isOpenRunStatus,
  openTasks,
  type RunCounts,
  type RunProgress,
  runCounts,
  runState,
  setRunStatus,
} from './run-progress.js';
import { readySystemTasks } from './system-steps.js';
import { writeUnitOutcomes } from './unit-outcomes.js';
import { loadUnitStates, unitState } from './unit-states.js';

// Units planned per round trip: bounds a round's memory and statement sizes.
const UNIT_PAGE = 500;

interface PlannedSystem {
  system: SystemSpec;
  strategy: Strategy;
  prepared: unknown;
}

type Unit = PlannedSystem & { doc: RunDocument };

// Plans one run incrementally: a finished task re-plans only its own unit (system, document), from
// that unit's tasks; progress and completion come from counters. Only start (or resume) reads
// the whole run, once.
export class RunPlanner {
  // The spec's metrics, by name, with their run-level state.
  private metrics = new Map<string, MetricPlanning>();

  private constructor(
    private readonly ctx: RunContext,
    private readonly run: RunEntity,
    private readonly spec: BenchmarkSpec,
    private readonly docs: Map<string, RunDocument>,
    private readonly systems: Map<string, PlannedSystem>,
  ) {}

  // `failed` when the run cannot be planned: the caller fails the run with that message.
  static async open(ctx: RunContext, runId: string): Promise<RunPlanner | { failed: string }> {
    const run = await ctx.db.getRepository(RunEntity).findOneByOrFail({ id: runId });
    const spec = run.spec as unknown as BenchmarkSpec;
    const systems = new Map<string, PlannedSystem>();
    for (const system of spec.systems.filter(isGeneratedSystem)) {
      const strategy = ctx.families.strategies.get(system.strategy);
      if (!strategy)
        return {
          failed: `system ${system.name}: no loaded benchmark family has strategy "${system.strategy}"`,
        };
      try {
        systems.set(system.name, { system, strategy, prepared: strategy.prepare?.(system, ctx.modelInfo) });
      } catch (err) {
        return { failed: (err as Error).message };
      }
    }
    const docs = new Map((await runDocuments(ctx, spec)).map((d) => [d.id, d]));
    const planner = new RunPlanner(ctx, run, spec, docs, systems);
    const missing = await planner.openMetrics(null);
    return missing ? { failed: missing } : planner;
  }

  // A run that cannot be planned at all (e.g. a system's model is not in the registry) fails.
  static async failRun(ctx: RunContext, runId: string, error: string): Promise<RunProgress> {
    const now = await setRunStatus(ctx.db, runId, 'failed', error);
    const counts = await runCounts(ctx.db, runId);
    return {
      runId,
      status: now.status,
      summaries: counts.summaries,
      tasks: counts.tasks,
      dispatched: 0,
      error: now.error,
    };
  }

  get runId(): string {
    return this.run.id;
  }

  get status(): RunEntity['status'] {
    return this.run.status;
  }

  // Start or resume: every unit is planned from what exists (one read of the run's summarize
  // tasks), dataset summaries are written, and with `redispatch` unfinished tasks go on the bus
  // again (a restarted process's in-memory queue is empty; a lost message is sent again).
  async planAll(redispatch: boolean): Promise<number> {
    if (!isOpenRunStatus(this.run.status)) return 0;
    const datasetPlan = await this.planSources();
    if (datasetPlan.error !== null) return this.fail(datasetPlan.error);
    await setExpectedSummaries(
      this.ctx.db,
      this.run.id,
      this.systems.size * this.docs.size + datasetPlan.expected,
    );
    // Before planning, so the tasks this call creates (dispatched as they are inserted) are not
    // sent twice.
    let dispatched = redispatch ? await this.redispatchOpen() : 0;
    dispatched += await this.insertAndDispatch(datasetPlan.tasks);
    const states = await loadUnitStates(this.ctx.db, this.run.id, null);
    const units: Unit[] = [];
    for (const doc of this.docs.values()) for (const s of this.systems.values()) units.push({ ...s, doc });
    for (let i = 0; i < units.length; i += UNIT_PAGE)
      dispatched += await this.planUnits(units.slice(i, i + UNIT_PAGE), states);
    if (this.run.status === 'pending' || this.run.status === 'interrupted') {
      const res = await this.ctx.db
        .getRepository(RunEntity)
        .update(
          { id: this.run.id, status: In(['pending', 'interrupted']) },
          { status: 'running', error: null, startedAt: this.run.startedAt ?? new Date() },
        );
      if (res.affected) this.run.status = 'running';
    }
    return dispatched;
  }

  // Plans what the given finished tasks make ready: the next steps (or the summary and its
  // judges) of their units, and, after a metric's run-level task (e.g. G-Eval's steps), that
  // metric's judges of every summary.
  async planFinished(taskIds: readonly string[]): Promise<number> {
    const keys = new Set<string>();
    const metrics = new Set<string>();
    for (const id of taskIds) {
      const unit = unitOfTaskId(id);
      if (unit) keys.add(unit);
      else for (const [name, m] of this.metrics) if (m.ownsRunTask?.(id)) metrics.add(name);
    }
    let dispatched = 0;
    const units = [...keys].flatMap((key) => {
      const [system, docId] = key.split(':') as [string, string];
      const s = this.systems.get(system);
      // A system-wide step finished: every unit of its system goes on.
      if (s && docId === SYSTEM_SCOPE) return [...this.docs.values()].map((doc) => ({ ...s, doc }));
      const doc = this.docs.get(docId);
      return s && doc ? [{ ...s, doc }] : [];
    });
    for (let i = 0; i < units.length; i += UNIT_PAGE) {
      const page = units.slice(i, i + UNIT_PAGE);
      const states = await loadUnitStates(
        this.ctx.db,
        this.run.id,
        page.map((u) => unitKey(u.system.name, u.doc.id)),
      );
      dispatched += await this.planUnits(page, states);
    }
    if (metrics.size) dispatched += await this.replanMetrics(metrics);
    return dispatched;
  }

  // Reads the counters: queues the score task once every unit settled and nothing is open, and
  // records the run's outcome once it is scored.
  async settle(): Promise<RunProgress> {
    // One statement: the status and the counters come from one snapshot, so a run that ended
    // meanwhile shows its open tasks ended with it.
    const { run, counts } = await runState(this.ctx.db, this.run.id);
    if (run) Object.assign(this.run, run);
    let dispatched = 0;
    const s = counts.summaries;
    if (isOpenRunStatus(this.run.status) && s.done + s.failed >= s.expected && openTasks(counts) === 0) {
      const score = counts.tasks.score;
      if (!score) {
        dispatched = await this.insertAndDispatch([
          {
            id: scoreTaskId(this.run.id),
            runId: this.run.id,
            stage: 'score',
            kind: 'score-run',
            payload: { type: 'score-run' },
          },
        ]);
      } else if (score.failed > 0) {
        const row = await taskError(this.ctx.db, scoreTaskId(this.run.id));
        await this.finish('failed', `scoring failed: ${row?.error ?? 'unknown error'}`);
      } else if (score.done > 0) {
        // Before the run ends: whoever sees it ended sees its headline too.
        await this.keepHeadline();
        await this.finish(...outcomeOf(counts, await this.firstFailure(counts)));
      }
    }
    return {
      runId: this.run.id,
      status: this.run.status,
      summaries: { ...s },
      tasks: counts.tasks,
      dispatched,
      error: this.run.error,
    };
  }

  // Whether units may have been left unplanned (a completion event lost): nothing is open, yet
  // not every unit settled. The caller then plans everything again.
  async stalled(): Promise<boolean> {
    const counts = await runCounts(this.ctx.db, this.run.id);
    const s = counts.summaries;
    return isOpenRunStatus(this.run.status) && openTasks(counts) === 0 && s.done + s.failed < s.expected;
  }

  // The earliest failure's message, so the run's error says why and not only how many.
  private async firstFailure(counts: RunCounts): Promise<string | null> {
    if (failedTasks(counts) === 0) return null;
    const first = await firstFailedTask(this.ctx.db, this.run.id);
    if (!first) return null;
    // The task id without the run, its document named as in the dataset.
    const where = first.id
      .slice(this.run.id.length + 1)
      .split(':')
      .map((part) => this.docs.get(part)?.externalId ?? part)
      .join(':');
    return `${where}: ${first.error ?? 'no error recorded'}`;
  }

  async finish(status: RunEntity['status'], error: string | null): Promise<void> {
    const now = await setRunStatus(this.ctx.db, this.run.id, status, error);
    this.run.status = now.status;
    this.run.error = now.error;
  }

  // The run's headline for lists of runs, from its report (families read the stored score result).
  // A list without it shows none: a failure here is logged, never the run's failure.
  private async keepHeadline(): Promise<void> {
    try {
      const report = await loadFullRunReport(this.ctx.families, this.ctx.db, this.run);
      await storeRunHeadline(this.ctx.db, this.run.id, runHeadline(report));
    } catch (err) {
      this.ctx.logger.warn('run headline not stored', { runId: this.run.id, error: (err as Error).message });
    }
  }

  private async fail(error: string): Promise<number> {
    await this.finish('failed', error);
    return 0;
  }

  // Opens the spec's metrics (only `names` when given); an error names a metric no family has.
  private async openMetrics(names: Set<string> | null): Promise<string | null> {
    for (const [i, m] of this.spec.metrics.entries()) {
      if (this.metrics.has(m.name) && !names?.has(m.name)) continue;
      const metric = this.ctx.families.metrics.get(m.name);
      if (!metric) return `metrics[${i}]: no loaded benchmark family has metric "${m.name}"`;
      this.metrics.set(m.name, await metric.open(this.ctx, this.run.id, this.spec));
    }
    return null;
  }

  // The judge tasks of settled summaries, from every metric of the spec.
  private judgeTasks(summaries: readonly SettledSummary[], only?: Set<string>): NewTask[] {
    if (summaries.length === 0) return [];
    return [...this.metrics].flatMap(([name, m]) => (only && !only.has(name) ? [] : m.tasksFor(summaries)));
  }

  // Summaries that system sources (not strategies) bring, written when planning starts.
  private async planSources(): Promise<{ expected: number; tasks: NewTask[]; error: string | null }> {
    const plan = { expected: 0, tasks: [] as NewTask[], error: null as string | null };
    const sources = new Set(this.spec.systems.flatMap((s) => (s.source === undefined ? [] : [s.source])));
    for (const name of sources) {
      const source = this.ctx.families.sources.get(name);
      if (!source) return { ...plan, error: `no loaded benchmark family has system source "${name}"` };
      const part = await source.planStart(
        this.ctx,
        { runId: this.run.id, spec: this.spec, docs: [...this.docs.values()] },
        (summaries) => this.judgeTasks(summaries),
      );
      if (part.error !== null) return { ...plan, error: part.error };
      plan.expected += part.expected;
      plan.tasks.push(...part.tasks);
    }
    return plan;
  }

  private async replanMetrics(names: Set<string>): Promise<number> {
    await this.openMetrics(names);
    const summaries: SettledSummary[] = await this.ctx.db.getRepository(SummaryEntity).find({
      select: { id: true, system: true, documentId: true, text: true },
      where: { runId: this.run.id },
      order: { id: 'ASC' },
    });
    return this.insertAndDispatch(this.judgeTasks(summaries, names));
  }

  private async planUnits(units: Unit[], states: Map<string, UnitState>): Promise<number> {
    if (!isOpenRunStatus(this.run.status)) return 0;
    const missing = units
      .filter((u) => u.strategy.needsText?.(u.system, u.prepared, u.doc.id))
      .map((u) => u.doc.id);
    const texts = await documentTexts(this.ctx.db, missing);
    const plans: { key: string; plan: UnitPlan }[] = [];
    for (const u of units) {
      const key = unitKey(u.system.name, u.doc.id);
      try {
        const plan = await planUnit({
          runId: this.run.id,
          spec: this.spec,
          system: u.system,
          strategy: u.strategy,
          prepared: u.prepared,
          documentId: u.doc.id,
          text: async () => texts.get(u.doc.id) ?? (await this.text(u.doc.id)),
          state: unitState(states, key),
        });
        plans.push({ key, plan });
      } catch (err) {
        if (!(err instanceof ConfigurationError) && !this.ctx.families.isPermanent(err)) throw err;
        return this.fail(`system ${u.system.name}, document ${u.doc.externalId}: ${(err as Error).message}`);
      }
    }
    await writeUnitOutcomes(this.ctx.db, this.run.id, plans);
    const summaries = plans.flatMap(({ plan }) => (plan.kind === 'summary' ? [settled(plan.summary)] : []));
    const steps = plans.flatMap(({ plan }) => (plan.kind === 'steps' ? plan.tasks : []));
    const awaiting = plans.flatMap(({ key, plan }) =>
      plan.kind === 'await'
        ? [{ system: key.slice(0, key.indexOf(':')), after: plan.after, task: plan.task }]
        : [],
    );
    const system = awaiting.length
      ? await readySystemTasks(this.ctx.db, this.run.id, [...this.docs.keys()], awaiting)
      : [];
    return this.insertAndDispatch([...steps, ...system, ...this.judgeTasks(summaries)]);
  }

  private async text(documentId: string): Promise<string> {
    const text = (await documentTexts(this.ctx.db, [documentId])).get(documentId);
    if (text === undefined) throw new Error(`document ${documentId} no longer exists`);
    return text;
  }

  private async insertAndDispatch(tasks: NewTask[]): Promise<number> {
    if (tasks.length === 0) return 0;
    const inserted = new Set(await insertTasks(this.ctx.db, tasks));
    return this.dispatch(tasks.filter((t) => inserted.has(t.id)));
  }

  private async dispatch(tasks: { id: string; stage: string; kind: string }[]): Promise<number> {
    // Many publishes in flight at once: one at a time, a NATS round trip each, caps at ~4k/s.
    for (let i = 0; i < tasks.length; i += 256)
      await Promise.all(
        tasks
          .slice(i, i + 256)
          .map((t) => this.ctx.dispatcher.dispatch(t.stage as NewTask['stage'], t.id, this.run.id, t.kind)),
      );
    return tasks.length;
  }

  private async redispatchOpen(): Promise<number> {
    return this.dispatch(await openRunTasks(this.ctx.db, this.run.id));
  }
}

// A scored run: completed only when no work failed; failed when no summary was produced at all.
function outcomeOf(counts: RunCounts, first: string | null): [RunEntity['status'], string | null] {
  const s = counts.summaries;
  const why = `${failureSummary(counts)}${first ? `; first failure: ${first}` : ''}`;
  if (s.expected > 0 && s.done === 0) return ['failed', `no summary was produced: ${why}`];
  if (failedTasks(counts) > 0 || s.failed > 0) return ['completed-with-failures', why];
  return ['completed', null];
}

function failureSummary(counts: RunCounts): string {
  const parts = Object.entries(counts.tasks)
    .filter(([, c]) => c.failed > 0)
    .map(([stage, c]) => `${c.failed} of ${c.total} ${stage} tasks failed`);
  if (counts.summaries.failed > 0)
    parts.unshift(`${counts.summaries.failed} of ${counts.summaries.expected} summaries failed`);
  return parts.join('; ');
}
