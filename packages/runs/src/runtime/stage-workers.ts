import type { Bus, ConsumerHandle, Delivery } from '@precis/bus';
import { handleTask, markTaskDead } from '../handlers/handle-task.js';
import type { RunContext } from '../planner/run-context.js';
import type { RunStage } from '../ports.js';

export interface StageWorkerOptions {
  // Handlers running at once per stage in this process.
  concurrency?: number;
  ackWaitMs?: number;
  maxDeliver?: number;
  // Delay before each redelivery after a failure (last value repeats).
  backoffMs?: number[];
  // Messages on the stage's queue that are not run tasks (a service's binary task envelopes):
  // handed to this instead of the run runtime.
  onOtherMessage?: (delivery: Delivery) => Promise<void>;
}

// Consumes a stage's queue: each delivery runs handleTask (which persists before resolving), so
// the bus acks only after the result is stored. On the last allowed delivery a failing task is
// recorded as dead, so the run can still finish and report it.
export async function startStageWorker(
  ctx: RunContext,
  bus: Bus,
  stage: RunStage,
  opts: StageWorkerOptions = {},
): Promise<ConsumerHandle> {
  const maxDeliver = opts.maxDeliver ?? 5;
  await bus.ensureQueue(stage);
  return bus.consume(
    stage,
    async (delivery) => {
      if (delivery.data instanceof Uint8Array && opts.onOtherMessage) return opts.onOtherMessage(delivery);
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
        if (delivery.deliveryCount >= maxDeliver)
          await markTaskDead(
            ctx,
            delivery.id,
            `gave up after ${delivery.deliveryCount} deliveries: ${message}`,
          );
        throw err;
      }
    },
    {
      maxInFlight: opts.concurrency ?? 8,
      ackWaitMs: opts.ackWaitMs ?? 60_000,
      maxDeliver,
      backoffMs: opts.backoffMs,
    },
  );
}
