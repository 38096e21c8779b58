import type { Bus, Subscription } from '@precis/bus';
import { markTaskDead } from '../handlers/handle-task.js';
import { advanceRun, type RunProgress } from '../planner/advance-run.usecase.js';
import type { RunContext } from '../planner/run-context.js';
import type { RunStage } from '../ports.js';
import { TASK_FINISHED_EVENT, type TaskFinishedEvent } from './bus-adapters.js';

interface Watch {
  dirty: boolean;
  running: boolean;
  done: (p: RunProgress) => void;
  fail: (e: unknown) => void;
  onProgress?: (p: RunProgress) => void;
}

const RUN_STAGES: RunStage[] = ['summarize', 'verify', 'score'];
// Every this many ticks, tasks the bus dead-lettered without a handler failure (a worker killed
// on every delivery) are recorded as dead, so their run can still finish and report them.
const DEAD_LETTER_EVERY_TICKS = 5;

// Drives runs forward: re-plans a run whenever one of its tasks finishes (coalescing bursts of
// completions into one re-plan), plus a periodic tick in case an event was missed (events are
// fan-out, not durable; the task table is the truth).
export class RunCoordinator {
  private readonly watches = new Map<string, Watch>();
  private readonly checking = new Map<string, NodeJS.Timeout>();
  private subscription?: Subscription;
  private timer?: NodeJS.Timeout;
  private ticks = 0;
  private stopped = false;

  constructor(
    private readonly ctx: RunContext,
    private readonly bus: Bus,
    private readonly tickMs = 2000,
  ) {}

  async start(): Promise<void> {
    this.subscription = await this.bus.subscribe(TASK_FINISHED_EVENT, (data) => {
      const event = data as unknown as TaskFinishedEvent;
      if (typeof event?.runId !== 'string' || typeof event.taskId !== 'string') return;
      if (!this.watches.has(event.runId)) return;
      // A finished judgment makes nothing new ready until its stage drains (then the score task
      // is due); only G-Eval steps release new tasks. Those completions just count open tasks.
      const [, stage] = event.taskId.split(':');
      if (stage === 'verify' && !event.taskId.includes(':*geval-steps:')) this.checkDrained(event.runId);
      else this.schedule(event.runId);
    });
    this.timer = setInterval(() => {
      if (++this.ticks % DEAD_LETTER_EVERY_TICKS === 0) void this.recordDeadLetters();
      for (const runId of this.watches.keys()) this.schedule(runId);
    }, this.tickMs);
    this.timer.unref();
  }

  // Resolves when the run leaves the running state (completed, failed or stopped).
  watch(runId: string, onProgress?: (p: RunProgress) => void): Promise<RunProgress> {
    return new Promise((resolve, reject) => {
      this.watches.set(runId, { dirty: false, running: false, done: resolve, fail: reject, onProgress });
      void this.advance(runId, true);
    });
  }

  // Re-plans once no task of the run is open any more (checked at most every 50 ms per run).
  private checkDrained(runId: string): void {
    if (this.checking.has(runId) || this.stopped) return;
    const timer = setTimeout(() => {
      this.checking.delete(runId);
      if (this.stopped) return;
      this.ctx.db
        .query(`SELECT 1 FROM tasks WHERE run_id = $1 AND status NOT IN ('done', 'failed', 'dead') LIMIT 1`, [
          runId,
        ])
        .then((rows: unknown[]) => {
          if (rows.length === 0) this.schedule(runId);
        })
        .catch((err: unknown) => {
          if (!this.stopped) this.ctx.logger.error('cannot check open tasks', { runId, error: String(err) });
        });
    }, 50);
    this.checking.set(runId, timer);
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
    if (!w || this.stopped) return;
    if (w.running) {
      w.dirty = true;
      return;
    }
    void this.advance(runId, false);
  }

  private async advance(runId: string, redispatch: boolean): Promise<void> {
    const w = this.watches.get(runId);
    if (!w) return;
    w.running = true;
    try {
      do {
        w.dirty = false;
        if (this.stopped) return;
        const started = performance.now();
        const progress = await advanceRun(this.ctx, runId, { redispatch });
        const took = performance.now() - started;
        redispatch = false;
        w.onProgress?.(progress);
        if (progress.status !== 'running' && progress.status !== 'pending') {
          this.watches.delete(runId);
          w.done(progress);
          return;
        }
        // Re-planning reads the whole run: when completions arrive faster than that, wait twice
        // as long as the last re-plan took, so planning never takes more than a third of the time
        // the workers have (a quick re-plan, as for a sequential book strategy, barely waits).
        if (w.dirty) await new Promise((r) => setTimeout(r, 2 * took));
      } while (w.dirty);
    } catch (err) {
      this.watches.delete(runId);
      w.fail(err);
    } finally {
      w.running = false;
    }
  }

  // Stops re-planning; runs still being watched stay 'running' in the database (resumable).
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    for (const t of this.checking.values()) clearTimeout(t);
    this.checking.clear();
    await this.subscription?.unsubscribe();
    // Let a re-plan already under way finish before the caller closes the database.
    while ([...this.watches.values()].some((w) => w.running)) await new Promise((r) => setTimeout(r, 10));
  }
}
