import { performance } from 'node:perf_hooks';
import type { Bus, Subscription } from '@precis/bus';
import { markTaskDead } from '../handlers/handle-task.js';
import type { RunContext } from '../planner/run-context.js';
import { RunPlanner } from '../planner/run-planner.js';
import { isOpenRunStatus, type RunProgress } from '../planner/run-progress.js';
import type { RunStage } from '../ports.js';
import { BatchDriver, type BatchProviders } from './batch-driver.js';
import { TASK_COMPLETED_SUBJECT, taskCompletedOf } from './bus-adapters.js';
import { Reconciler } from './reconciler.js';

interface Watch {
  planner?: RunPlanner;
  // Tasks finished since the last planning round.
  finished: Set<string>;
  running: boolean;
  redispatch: boolean;
  done: (p: RunProgress) => void;
  onProgress?: (p: RunProgress) => void;
}

const RUN_STAGES: RunStage[] = ['retrieve', 'summarize', 'verify', 'score'];
// Every this many ticks, tasks the bus dead-lettered without a handler failure (a worker killed
// on every delivery) are recorded as dead, so their run can still finish and report them.
const DEAD_LETTER_EVERY_TICKS = 5;
// Between rounds: completions arriving meanwhile are planned together, and a round reads the
// counters once for all of them. kgds-verify, 800 verify tasks at ~78/s: 187 rounds (0.23
// statements per task); resting as long as the round took, 20 to 50 ms, gave 377 (0.47).
const REST_MS = 50;
// How often provider batches are looked after (each model's pollSeconds paces its polls).
const BATCH_TICK_MS = 500;

// Drives runs forward: each task completion re-plans only its own unit (completions arriving
// during a round are planned together in the next), and a periodic tick checks the counters,
// the bus's dead letters and lost queue messages (events are fan-out, not
// durable; the task table is the truth).
export class RunCoordinator {
  private readonly watches = new Map<string, Watch>();
  private subscription?: Subscription;
  private timer?: NodeJS.Timeout;
  private batchTimer?: NodeJS.Timeout;
  private ticks = 0;
  private stopped = false;
  private readonly reconciler: Reconciler;
  private reconciling: Promise<void> | null = null;
  // Planning rounds run and the milliseconds spent in them: whether planning keeps up with the
  // workers (the kgds-verify bench prints them).
  readonly planning = { rounds: 0, busyMs: 0 };

  private readonly batches: BatchDriver | null;
  private batching: Promise<void> | null = null;

  constructor(
    private readonly ctx: RunContext,
    private readonly bus: Bus,
    private readonly tickMs = 2000,
    reconcileEveryMs = 10_000,
    // The models' providers, for runs whose calls wait for provider batches (limits.batch).
    batchProviders?: BatchProviders,
  ) {
    this.reconciler = new Reconciler(ctx, bus, reconcileEveryMs);
    this.batches = batchProviders ? new BatchDriver(ctx, bus, batchProviders) : null;
  }

  async start(): Promise<void> {
    this.subscription = await this.bus.subscribe(TASK_COMPLETED_SUBJECT, (data) => {
      const event = taskCompletedOf(data);
      if (!event?.runId) return;
      const w = this.watches.get(event.runId);
      if (!w) return;
      w.finished.add(event.taskId);
      this.schedule(event.runId);
    });
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
    if (this.batches) {
      this.batchTimer = setInterval(() => this.batchTick(), BATCH_TICK_MS);
      this.batchTimer.unref();
    }
  }

  // Resolves when the run leaves the open states (completed, failed, stopped, cancelled...).
  watch(runId: string, onProgress?: (p: RunProgress) => void): Promise<RunProgress> {
    return new Promise((resolve) => {
      this.watches.set(runId, {
        finished: new Set(),
        running: false,
        redispatch: true,
        done: resolve,
        onProgress,
      });
      this.schedule(runId);
    });
  }

  private tick(): void {
    if (this.stopped) return;
    this.ticks++;
    if (this.ticks % DEAD_LETTER_EVERY_TICKS === 0) void this.recordDeadLetters();
    if (this.reconciler.due()) void this.reconcile();
    for (const runId of this.watches.keys()) this.schedule(runId);
  }

  private batchTick(): void {
    if (this.stopped || !this.batches || this.batching) return;
    this.batching = this.batches
      .tick([...this.watches.keys()])
      .catch((err) => this.ctx.logger.error('batch tick failed', { error: String(err) }))
      .finally(() => {
        this.batching = null;
      });
  }

  private async recordDeadLetters(): Promise<void> {
    try {
      for (const stage of RUN_STAGES) {
        for (const dl of await this.bus.deadLetters(stage)) {
          if (this.stopped) return;
          if (dl.runId && this.watches.has(dl.runId))
            await markTaskDead(this.ctx, dl.id, `dead-lettered by the bus: ${dl.error}`);
        }
      }
    } catch (err) {
      if (!this.stopped) this.ctx.logger.error('cannot read dead letters', { error: String(err) });
    }
  }

  private schedule(runId: string): void {
    const w = this.watches.get(runId);
    if (!w || this.stopped || w.running || this.reconciling) return;
    void this.advance(runId, w);
  }

  // Between planning rounds only: a round inserts tasks before it dispatches them.
  private async reconcile(): Promise<void> {
    if (this.reconciling || [...this.watches.values()].some((w) => w.running)) return;
    this.reconciling = this.reconciler.reconcile([...this.watches.keys()]);
    try {
      await this.reconciling;
    } catch (err) {
      if (!this.stopped) this.ctx.logger.error('cannot reconcile queues', { error: String(err) });
    } finally {
      this.reconciling = null;
      for (const runId of this.watches.keys()) this.schedule(runId);
    }
  }

  private async advance(runId: string, w: Watch): Promise<void> {
    w.running = true;
    try {
      do {
        if (this.stopped) return;
        const t0 = performance.now();
        const progress = await this.round(runId, w);
        const tookMs = performance.now() - t0;
        this.planning.rounds++;
        this.planning.busyMs += tookMs;
        w.onProgress?.(progress);
        if (!isOpenRunStatus(progress.status)) {
          this.watches.delete(runId);
          w.done(progress);
          return;
        }
        await new Promise((r) => setTimeout(r, REST_MS));
      } while (w.finished.size > 0);
    } catch (err) {
      // e.g. the database is briefly unreachable: the finished ids stay queued and the next tick
      // plans them again (planning is idempotent).
      if (!this.stopped)
        this.ctx.logger.error('planning the run failed; retrying', { runId, error: String(err) });
    } finally {
      w.running = false;
    }
  }

  private async round(runId: string, w: Watch): Promise<RunProgress> {
    let dispatched = 0;
    if (!w.planner) {
      const opened = await RunPlanner.open(this.ctx, runId);
      if (!(opened instanceof RunPlanner)) return RunPlanner.failRun(this.ctx, runId, opened.failed);
      dispatched += await opened.planAll(w.redispatch);
      w.redispatch = false;
      // Completions that arrived while it planned stay queued: their units are planned again
      // from their state (idempotent), since planAll read the states before they finished.
      w.planner = opened;
    } else if (w.finished.size > 0) {
      const ids = [...w.finished];
      w.finished.clear();
      try {
        dispatched += await w.planner.planFinished(ids);
      } catch (err) {
        for (const id of ids) w.finished.add(id);
        throw err;
      }
    } else if (await w.planner.stalled()) {
      // Nothing is open but units are unsettled: a completion event was lost; plan everything.
      dispatched += await w.planner.planAll(false);
    }
    const progress = await w.planner.settle();
    progress.dispatched += dispatched;
    return progress;
  }

  // Stops planning; runs still being watched stay open in the database (resumable).
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    if (this.batchTimer) clearInterval(this.batchTimer);
    await this.subscription?.unsubscribe();
    // Let a round already under way finish before the caller closes the database.
    while ([...this.watches.values()].some((w) => w.running)) await new Promise((r) => setTimeout(r, 10));
    await this.reconciling;
    await this.batching;
  }
}
