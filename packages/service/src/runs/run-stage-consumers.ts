import type { Bus, ConsumerHandle } from '@precis/bus';
import { type FamilyRegistry, type RunStage, startStageWorker } from '@precis/engine';
import type { DataSource } from 'typeorm';
import type { ServiceLogger } from '../logging/create-logger.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import type { StageWorkerFactory } from '../tasks/stage-worker.factory.js';
import { buildRunContext } from './run-context.js';

export interface RunStageConsumerConfig {
  PRECIS_MODELS?: string;
  WORKER_CONCURRENCY: number;
  TASK_ACK_WAIT_MS: number;
  TASK_MAX_DELIVER: number;
  TASK_RETRY_DELAYS_MS: number[];
}

// What every run service (summarization, verifier, scoring) does at boot: pull its run stage
// queue(s) with the run runtime; binary task envelopes on the same queue go to the service
// kit's worker (unknown kinds are recorded as failed and dead-lettered, never dropped).
export async function startRunStageConsumers(opts: {
  stages: readonly RunStage[];
  bus: Bus;
  dataSource: DataSource;
  config: RunStageConsumerConfig;
  logger: ServiceLogger;
  metrics: MetricsRegistry;
  factory: StageWorkerFactory;
  families: FamilyRegistry;
}): Promise<ConsumerHandle[]> {
  const { bus, config, logger } = opts;
  const ctx = buildRunContext({
    dataSource: opts.dataSource,
    bus,
    modelsFile: config.PRECIS_MODELS,
    logger,
    metrics: opts.metrics,
    families: opts.families,
  });
  const handles: ConsumerHandle[] = [];
  for (const stage of opts.stages) {
    const envelope = opts.factory.create(stage, []);
    handles.push(
      await startStageWorker(ctx, bus, stage, {
        onOtherMessage: (delivery) => envelope.handleDelivery(delivery),
        concurrency: config.WORKER_CONCURRENCY,
        ackWaitMs: config.TASK_ACK_WAIT_MS,
        maxDeliver: config.TASK_MAX_DELIVER,
        backoffMs: config.TASK_RETRY_DELAYS_MS,
      }),
    );
  }
  logger.info(
    { stages: opts.stages, concurrency: config.WORKER_CONCURRENCY, models: config.PRECIS_MODELS ?? null },
    'consuming run stage queue(s)',
  );
  return handles;
}
