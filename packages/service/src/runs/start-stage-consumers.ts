import type { Bus, ConsumerHandle } from '@precis/bus';
import type { Stage } from '@precis/contracts';
import {
  type FamilyRegistry,
  type JobHandler,
  type PluginAddressPolicy,
  startStageWorker,
} from '@precis/engine';
import type { DataSource } from 'typeorm';
import type { ServiceLogger } from '../logging/create-logger.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';
import { buildRunContext } from './run-context.js';
import { workerMetrics } from './worker-metrics.js';

export interface StageConsumerConfig {
  PRECIS_MODELS?: string;
  WORKER_CONCURRENCY: number;
  TASK_ACK_WAIT_MS: number;
  TASK_MAX_DELIVER: number;
  TASK_RETRY_DELAYS_MS: number[];
  // Services without the variable call no plugin: none allowed.
  PRECIS_PLUGIN_ADDRESSES?: PluginAddressPolicy;
}

// What every service with a stage queue does at boot: pull each of its stages with the engine's
// stage worker, running the loaded families' run tasks and this service's jobs (unknown kinds
// are recorded as failed and dead-lettered, never dropped).
export async function startStageConsumers(opts: {
  stages: readonly Stage[];
  bus: Bus;
  dataSource: DataSource;
  config: StageConsumerConfig;
  logger: ServiceLogger;
  metrics: MetricsRegistry;
  families: FamilyRegistry;
  jobs?: readonly JobHandler[];
}): Promise<ConsumerHandle[]> {
  const { bus, config, logger } = opts;
  const ctx = buildRunContext({
    dataSource: opts.dataSource,
    bus,
    modelsFile: config.PRECIS_MODELS,
    pluginAddresses: config.PRECIS_PLUGIN_ADDRESSES,
    logger,
    families: opts.families,
  });
  const metrics = workerMetrics(opts.metrics);
  const handles: ConsumerHandle[] = [];
  for (const stage of opts.stages) {
    handles.push(
      await startStageWorker(ctx, bus, stage, {
        jobs: opts.jobs,
        metrics,
        concurrency: config.WORKER_CONCURRENCY,
        ackWaitMs: config.TASK_ACK_WAIT_MS,
        maxDeliver: config.TASK_MAX_DELIVER,
        backoffMs: config.TASK_RETRY_DELAYS_MS,
      }),
    );
  }
  logger.info(
    {
      stages: opts.stages,
      jobs: (opts.jobs ?? []).map((j) => j.kind),
      concurrency: config.WORKER_CONCURRENCY,
      models: config.PRECIS_MODELS ?? null,
      ...(config.PRECIS_PLUGIN_ADDRESSES ? { pluginAddresses: config.PRECIS_PLUGIN_ADDRESSES.patterns } : {}),
    },
    'consuming stage queue(s)',
  );
  return handles;
}
