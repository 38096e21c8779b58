import type { Bus } from '@precis/bus';
import type { RunContext } from '../planner/run-context.js';
import type { RunStage } from '../ports.js';

const STAGES: RunStage[] = ['summarize', 'verify', 'score'];

// Re-sends tasks that are open in the database but no longer on the bus (a message deleted or
// lost from its stream). When a stage's queue holds fewer messages than the watched runs have
// open tasks, the tasks untouched for longest (`staleMs` at least) are sent again, up to the
// shortfall, under a new message id so the queue's dedupe window does not drop them.
export class Reconciler {
  private running: Promise<void> | null = null;
  private lastRun = 0;
  private round = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly bus: Bus,
    private readonly staleMs: number,
  ) {}

  maybeRun(runIds: string[]): Promise<void> {
    if (this.running || runIds.length === 0 || Date.now() - this.lastRun < this.staleMs / 3)
      return this.running ?? Promise.resolve();
    this.lastRun = Date.now();
    this.running = this.reconcile(runIds)
      .catch((err: unknown) => this.ctx.logger.error('cannot reconcile queues', { error: String(err) }))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private async reconcile(runIds: string[]): Promise<void> {
    const rows: { key: string; open: unknown }[] = await this.ctx.db.query(
      `SELECT key, SUM(total - done - failed) AS open FROM run_counters
       WHERE run_id = ANY($1::uuid[]) AND key <> 'summaries' GROUP BY key ORDER BY key`,
      [runIds],
    );
    this.round++;
    for (const stage of STAGES) {
      const open = Number(rows.find((r) => r.key === stage)?.open ?? 0);
      if (open === 0) continue;
      const shortfall = open - (await this.bus.pending(stage));
      if (shortfall <= 0) continue;
      const stale: { id: string; run_id: string }[] = await this.ctx.db.query(
        `SELECT id, run_id FROM tasks
         WHERE run_id = ANY($1::uuid[]) AND stage = $2 AND status NOT IN ('done', 'failed', 'dead')
           AND updated_at < now() - make_interval(secs => $3)
         ORDER BY updated_at, id LIMIT $4`,
        [runIds, stage, this.staleMs / 1000, shortfall],
      );
      for (const t of stale)
        await this.bus.enqueue(stage, {
          id: resendId(t.id, this.round),
          runId: t.run_id,
          data: { taskId: t.id },
        });
      if (stale.length)
        this.ctx.logger.warn('re-sent tasks missing from their queue', {
          stage,
          count: stale.length,
          shortfall,
        });
    }
  }
}

const RESEND = /~resend-\d+$/;

export const resendId = (taskId: string, round: number) => `${taskId}~resend-${round}`;

// The task a (possibly re-sent) message is for.
export const taskIdOfMessage = (messageId: string) => messageId.replace(RESEND, '');
