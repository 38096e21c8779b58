import type { Bus } from '@precis/bus';
import { createRunContext, type FamilyRegistry, type RunContext, type RunLogger } from '@precis/engine';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import type { DataSource } from 'typeorm';
import type { ServiceLogger } from '../logging/create-logger.js';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';

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
  families: FamilyRegistry;
}): RunContext {
  const registry = opts.modelsFile ? loadModelRegistry(opts.modelsFile) : undefined;
  const chat = registry
    ? new LlmClient({ registry, store: createTypeOrmLlmStore(opts.dataSource) })
    : undefined;
  const ctx = createRunContext({
    db: opts.dataSource,
    bus: opts.bus,
    families: opts.families,
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
