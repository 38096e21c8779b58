import type { Bus } from '@precis/bus';
import {
  createRunContext,
  type FamilyRegistry,
  PluginAddressPolicy,
  type RunContext,
  type RunLogger,
} from '@precis/engine';
import { prepareImport } from '@precis/ingest';
import {
  createTypeOrmLlmStore,
  LimiterRegistry,
  LlmClient,
  loadModelRegistry,
  PgSharedLimits,
  parkCall,
} from '@precis/llm';
import type { DataSource } from 'typeorm';
import type { ServiceLogger } from '../logging/create-logger.js';

export function runLogger(logger: ServiceLogger): RunLogger {
  return {
    info: (msg, fields) => logger.info(fields ?? {}, msg),
    warn: (msg, fields) => logger.warn(fields ?? {}, msg),
    error: (msg, fields) => logger.error(fields ?? {}, msg),
  };
}

const limiters = new WeakMap<DataSource, LimiterRegistry>();

// A service is one process of a cluster: its model-endpoint limits are held in the database for
// every process together (one registry per database connection).
export function clusterLimiters(db: DataSource): LimiterRegistry {
  let registry = limiters.get(db);
  if (!registry) {
    registry = new LimiterRegistry(new PgSharedLimits(db));
    limiters.set(db, registry);
  }
  return registry;
}

// The engine's context over this service's connections: the model client (cache + ledger in
// llm_calls) when a registry is configured, the plugin addresses it may call (none unless given),
// and a completion sink that also logs each task this process finished (counters on /metrics).
export function buildRunContext(opts: {
  dataSource: DataSource;
  bus: Bus;
  modelsFile: string | undefined;
  pluginAddresses?: PluginAddressPolicy;
  logger: ServiceLogger;
  families: FamilyRegistry;
}): RunContext {
  // Task errors reach API clients: they name the registry entry and PRECIS_MODELS, not the path.
  const registry = opts.modelsFile
    ? loadModelRegistry(opts.modelsFile, { setting: 'PRECIS_MODELS' })
    : undefined;
  const chat = registry
    ? new LlmClient({
        registry,
        store: createTypeOrmLlmStore(opts.dataSource),
        limiters: clusterLimiters(opts.dataSource),
        // Calls of stages a spec sends through provider batches park here; the gateway sends them.
        parkCall: (call) => parkCall(opts.dataSource, call),
      })
    : undefined;
  const ctx = createRunContext({
    db: opts.dataSource,
    bus: opts.bus,
    families: opts.families,
    chat,
    registry,
    logger: runLogger(opts.logger),
    limiters: clusterLimiters(opts.dataSource),
    pluginAddresses: opts.pluginAddresses ?? PluginAddressPolicy.none(),
    prepareImport,
  });
  const announce = ctx.events;
  return {
    ...ctx,
    events: {
      async taskFinished(runId, taskId, detail) {
        opts.logger.info({ runId, taskId, ...detail }, 'task finished');
        await announce.taskFinished(runId, taskId, detail);
      },
    },
  };
}
