import type { Bus } from '@precis/bus';
import {
  type BatchClient,
  batchAnswerPricer,
  batchRound,
  cancelBatch,
  type EndedBatch,
  type ModelRegistry,
  type ModelSpec,
} from '@precis/llm';
import type { RunContext } from '../planner/run-context.js';
import type { RunStage } from '../ports.js';
import {
  dropOrphanCalls,
  endpointsWithWork,
  markCancelled,
  orphanBatches,
  parkingTasksLeft,
} from '../stores/batch-work.store.js';
import { type ReadyTask, requeueReadyTasks } from '../tasks/waiting-tasks.store.js';
import { taskMessage } from './bus-adapters.js';
import { requeueId } from './reconciler.js';

// How often batch work of ended runs is looked for (each look reads every queued call).
const ORPHAN_CHECK_MS = 3000;

// The models' endpoints and keys, as the process's LLM client has them.
export interface BatchProviders {
  registry: ModelRegistry;
  providerClient(model: string): BatchClient;
}

// Keeps provider batches moving (issue 39), driven by the run coordinator's tick: for each
// endpoint with parked calls or open batches, sends what has gathered, polls at the model's
// pollSeconds, settles what ended, and sends the tasks whose calls are all answered back to their
// stage. Every step is in the database, so another process (a restart, a second replica) takes
// over where this one stopped.
export class BatchDriver {
  private readonly lastPoll = new Map<string, number>();
  private readonly lastOrphanCheck = new Map<string, number>();
  private readonly lastSend = new Map<string, number>();
  private readonly reported = new Set<string>();
  private running = false;

  constructor(
    private readonly ctx: RunContext,
    private readonly bus: Bus,
    private readonly providers: BatchProviders,
  ) {}

  // One pass over every endpoint with batch work; `runIds`: the watched runs, whose waiting tasks
  // are checked too (a settlement whose re-queue was lost to a crash is finished here).
  async tick(runIds: readonly string[]): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      for (const e of await endpointsWithWork(this.ctx.db))
        await this.endpointRound(e.endpoint, e.model, runIds);
      await this.send(await requeueReadyTasks(this.ctx.db, { runIds }));
    } finally {
      this.running = false;
    }
  }

  private async endpointRound(endpoint: string, model: string, runIds: readonly string[]): Promise<void> {
    const spec = this.spec(model);
    if (!spec?.batch) return;
    const due = Date.now() - (this.lastPoll.get(endpoint) ?? 0) >= spec.batch.pollSeconds * 1000;
    try {
      await this.dropOrphans(endpoint, model);
      const round = await batchRound({
        db: this.ctx.db,
        openai: this.providers.providerClient(model),
        endpoint,
        url: '/v1/chat/completions',
        limits: { maxRequests: spec.batch.maxRequests, maxBytes: spec.batch.maxBytes },
        gatherMs: spec.batch.gatherSeconds * 1000,
        sentMsAgo: Date.now() - (this.lastSend.get(endpoint) ?? 0),
        moreComing: () => parkingTasksLeft(this.ctx.db, endpoint, runIds),
        poll: due,
        price: batchAnswerPricer(spec),
        maxRetries: spec.maxRetries,
        onExpiry: spec.batch.onExpiry,
      });
      if (due) this.lastPoll.set(endpoint, Date.now());
      if (round.submitted.length) this.lastSend.set(endpoint, Date.now());
      for (const id of round.submitted) this.ctx.logger.info('provider batch sent', { model, batch: id });
      for (const b of round.ended) await this.settled(model, b);
    } catch (err) {
      // The provider or the database is unreachable: the next tick tries again.
      this.ctx.logger.error('batch round failed; retrying', { model, error: (err as Error).message });
    }
  }

  // Batch work of runs that ended meanwhile (cancelled, stopped): queued calls are dropped, sent
  // batches cancelled at the provider (their settlement then fails the calls as cancelled).
  private async dropOrphans(endpoint: string, model: string): Promise<void> {
    if (Date.now() - (this.lastOrphanCheck.get(endpoint) ?? 0) < ORPHAN_CHECK_MS) return;
    this.lastOrphanCheck.set(endpoint, Date.now());
    const dropped = await dropOrphanCalls(this.ctx.db, endpoint);
    if (dropped) this.ctx.logger.info('parked calls dropped: their runs ended', { model, calls: dropped });
    for (const b of await orphanBatches(this.ctx.db, endpoint)) {
      const status = await cancelBatch(this.providers.providerClient(model), b.providerBatchId);
      await markCancelled(this.ctx.db, b.id, status);
      this.ctx.logger.info('provider batch cancelled: no open task waits for it', {
        model,
        batch: b.providerBatchId,
      });
    }
  }

  private async settled(model: string, b: EndedBatch): Promise<void> {
    const s = b.settlement;
    this.ctx.logger.info('provider batch ended', {
      model,
      batch: b.state.id,
      status: b.state.status,
      answered: s.answered.length,
      failed: s.failed.length,
      requeued: s.requeued.length,
    });
    const ids = s.tasks.map((t) => t.taskId);
    await this.send(await requeueReadyTasks(this.ctx.db, { taskIds: ids }));
  }

  private async send(tasks: ReadyTask[]): Promise<void> {
    const byStage = new Map<RunStage, ReadyTask[]>();
    for (const t of tasks) {
      const stage = t.stage as RunStage;
      const list = byStage.get(stage);
      if (list) list.push(t);
      else byStage.set(stage, [t]);
    }
    for (const [stage, ready] of byStage)
      await this.bus.enqueueMany(
        stage,
        ready.map((t) => taskMessage({ id: t.id, runId: t.runId, stage, kind: t.kind }, requeueId(t.id))),
      );
  }

  // The registry's entry for a parked call's model (reported once when this process lacks it).
  private spec(model: string): ModelSpec | null {
    const spec = this.providers.registry.models.get(model);
    if (spec?.batch) return spec;
    if (!this.reported.has(model)) {
      this.reported.add(model);
      this.ctx.logger.error('calls wait for a batch of a model this process cannot batch', {
        model,
        why: spec ? 'its registry entry has no batch settings' : "it is not in this process's model registry",
      });
    }
    return null;
  }
}
