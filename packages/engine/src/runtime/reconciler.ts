import type { Bus } from '@precis/bus';
import type { RunContext } from '../planner/run-context.js';
import type { RunStage } from '../ports.js';
import { openTasksPerStage } from '../stores/runs.store.js';
import { openStageTasks } from '../stores/tasks.store.js';
import { taskMessage } from './bus-adapters.js';

const STAGES: RunStage[] = ['retrieve', 'summarize', 'verify', 'score'];

// Re-sends tasks that are open in the database but no longer on the bus (a message deleted or
// lost from its stream). A stage's queue holds every unacked message (waiting or in flight), and
// a task's message is acked only after its result is stored, so an empty queue while the watched
// runs still have open tasks of that stage means those tasks were lost. It must hold at two
// checks in a row, made while no planning round is inserting and dispatching tasks; the tasks are
// then sent again under a new message id (the queue's dedupe window would drop the old one). A
// lost task in a queue that is not empty waits for the queue to drain: never a duplicate.
export class Reconciler {
  private lastCheck = 0;
  private suspect = new Set<RunStage>();
  private round = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly bus: Bus,
    private readonly everyMs: number,
  ) {}

  due(): boolean {
    return Date.now() - this.lastCheck >= this.everyMs;
  }

  // Called by the coordinator between planning rounds, never during one.
  async reconcile(runIds: string[]): Promise<void> {
    this.lastCheck = Date.now();
    if (runIds.length === 0) return;
    const rows = await openTasksPerStage(this.ctx.db, runIds);
    const wasSuspect = this.suspect;
    this.suspect = new Set();
    this.round++;
    for (const stage of STAGES) {
      const open = Number(rows.find((r) => r.key === stage)?.open ?? 0);
      if (open === 0) continue;
      try {
        await this.check(runIds, stage, wasSuspect.has(stage));
      } catch (err) {
        // One broken stage queue must not keep the other stages' lost tasks from being sent again.
        this.ctx.logger.error('cannot reconcile the queue', { stage, error: String(err) });
      }
    }
  }

  private async check(runIds: string[], stage: RunStage, wasSuspect: boolean): Promise<void> {
    if ((await this.bus.pending(stage)) > 0) return;
    if (wasSuspect) await this.resend(runIds, stage);
    else this.suspect.add(stage);
  }

  private async resend(runIds: string[], stage: RunStage): Promise<void> {
    const lost = await openStageTasks(this.ctx.db, runIds, stage);
    // Open but waiting for provider batches: not on the bus by design.
    if (lost.length === 0) return;
    await this.bus.enqueueMany(
      stage,
      lost.map((t) =>
        taskMessage({ id: t.id, runId: t.run_id, stage, kind: t.kind }, resendId(t.id, this.round)),
      ),
    );
    this.ctx.logger.warn('re-sent tasks missing from their queue', { stage, count: lost.length });
  }
}

const RESEND = /~resend-[0-9a-z]+$/;

export const resendId = (taskId: string, round: number) => `${taskId}~resend-${round}`;
// A waiting task sent again once its batched calls are answered (unique: a task may wait often).
export const requeueId = (taskId: string) => `${taskId}~resend-b${Date.now().toString(36)}`;

// The task a (possibly re-sent) message is for.
export const taskIdOfMessage = (messageId: string) => messageId.replace(RESEND, '');
