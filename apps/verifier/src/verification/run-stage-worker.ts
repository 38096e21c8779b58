import type { Bus, ConsumerHandle } from '@precis/bus';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import {
  createRunContext,
  handleTask,
  markTaskDead,
  type RunContext,
  type RunLogger,
  type RunStage,
} from '@precis/runs';
import type { MetricsRegistry, ServiceLogger, StageWorker } from '@precis/service';
import type { DataSource } from 'typeorm';

export function runLogger(logger: ServiceLogger): RunLogger {
  return {
    info: (msg, fields) => logger.info(fields ?? {}, msg),
    warn: (msg, fields) => logger.warn(fields ?? {}, msg),
    error: (msg, fields) => logger.error(fields ?? {}, msg),
  };
}

// The run runtime's context over this service's connections: the model client (cache + ledger in
// llm_calls) when a registry is configured, and a completion sink that also counts and logs the
// tasks this process finished (how an operator sees the share of each replica).
export function buildRunContext(opts: {
  dataSource: DataSource;
  bus: Bus;
  modelsFile: string | undefined;
  logger: ServiceLogger;
  metrics: MetricsRegistry;
}): RunContext {
  const registry = opts.modelsFile ? loadModelRegistry(opts.modelsFile) : undefined;
  const chat = registry
    ? new LlmClient({ registry, store: createTypeOrmLlmStore(opts.dataSource) })
    : undefined;
  const ctx = createRunContext({
    db: opts.dataSource,
    bus: opts.bus,
    chat,
    registry,
    logger: runLogger(opts.logger),
  });
  const announce = ctx.events;
  const finished = opts.metrics.counter(
    'precis_run_tasks_finished_total',
    'run tasks this process finished (done, failed or dead), by stage',
  );
  return {
    ...ctx,
    events: {
      async taskFinished(runId, taskId) {
        const stage = taskId.split(':')[1] ?? 'unknown';
        finished.inc({ stage });
        opts.logger.info({ runId, taskId, stage }, 'run task finished');
        await announce.taskFinished(runId, taskId);
      },
    },
  };
}

export interface RunStageWorkerOptions {
  concurrency: number;
  ackWaitMs: number;
  maxDeliver: number;
  backoffMs: number[];
}

// Pulls a run stage's queue. Run tasks (JSON { taskId }, from the planner) go through the run
// runtime exactly as startStageWorker from @precis/runs does: handleTask persists before it
// resolves, so the ack follows the stored result; on the last allowed delivery a failing task is
// recorded as dead. A binary precis.v1.Task envelope on the same queue is not a run task: the
// service kit's worker records it (unknown kinds fail and are dead-lettered, never dropped).
export async function startRunStageWorker(
  ctx: RunContext,
  bus: Bus,
  stage: RunStage,
  envelopes: StageWorker,
  opts: RunStageWorkerOptions,
): Promise<ConsumerHandle> {
  await bus.ensureQueue(stage);
  return bus.consume(
    stage,
    async (delivery) => {
      if (delivery.data instanceof Uint8Array) return envelopes.handleDelivery(delivery);
      try {
        await handleTask(ctx, delivery.id);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        ctx.logger.error('task failed', {
          stage,
          taskId: delivery.id,
          runId: delivery.runId,
          attempt: delivery.deliveryCount,
          error: message,
        });
        if (delivery.deliveryCount >= opts.maxDeliver)
          await markTaskDead(
            ctx,
            delivery.id,
            `gave up after ${delivery.deliveryCount} deliveries: ${message}`,
          );
        throw err;
      }
    },
    {
      maxInFlight: opts.concurrency,
      ackWaitMs: opts.ackWaitMs,
      maxDeliver: opts.maxDeliver,
      backoffMs: opts.backoffMs,
    },
  );
}
