import type { Bus, Subscription } from '@precis/bus';
import { advanceRun, type RunProgress } from '../planner/advance-run.usecase.js';
import type { RunContext } from '../planner/run-context.js';
import { TASK_FINISHED_EVENT, type TaskFinishedEvent } from './bus-adapters.js';

interface Watch {
  dirty: boolean;
  running: boolean;
  done: (p: RunProgress) => void;
  fail: (e: unknown) => void;
  onProgress?: (p: RunProgress) => void;
}

// Drives runs forward: re-plans a run whenever one of its tasks finishes (coalescing bursts of
// completions into one re-plan), plus a periodic tick in case an event was missed (events are
// fan-out, not durable; the task table is the truth).
export class RunCoordinator {
  private readonly watches = new Map<string, Watch>();
  private subscription?: Subscription;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly ctx: RunContext,
    private readonly bus: Bus,
    private readonly tickMs = 2000,
  ) {}

  async start(): Promise<void> {
    this.subscription = await this.bus.subscribe(TASK_FINISHED_EVENT, (data) => {
      const event = data as unknown as TaskFinishedEvent;
      if (this.watches.has(event.runId)) this.schedule(event.runId);
    });
    this.timer = setInterval(() => {
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

  private schedule(runId: string): void {
    const w = this.watches.get(runId);
    if (!w) return;
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

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.subscription?.unsubscribe();
  }
}
