export {
  type CommonEnvSchema,
  commonEnv,
  LOG_LEVELS,
  type LogLevelName,
  type WorkerEnvSchema,
  workerEnv,
} from './config/common-env.js';
export {
  bool,
  type EnvConfig,
  type EnvSchema,
  type EnvVar,
  int,
  intList,
  oneOf,
  port,
  redactUrl,
  secretList,
  str,
  url,
  urlList,
} from './config/env-schema.js';
export { type FileAccessEnvSchema, fileAccessEnv, serverFilePolicy } from './config/file-access-env.js';
export { type PluginAddressEnvSchema, pluginAddressEnv } from './config/plugin-address-env.js';
export {
  ConfigError,
  describeConfig,
  type EnvProblem,
  envExampleLines,
  validateEnv,
} from './config/validate-env.js';
export { bootstrapService, type RunningService, type ServiceOptions } from './core/bootstrap-service.js';
export { HTTP_TIMEOUTS, REQUEST_ID_HEADER, requestIdOf } from './core/http-server.js';
export { retryUntil, StartupError } from './core/retry-until.js';
export { ServiceCoreModule } from './core/service-core.module.js';
export {
  BUS,
  SERVICE_CONFIG,
  SERVICE_INFO,
  SERVICE_LOGGER,
  type ServiceInfo,
  WORKER_LOG_LEVEL,
} from './core/tokens.js';
export { type ReadinessCheck, ReadinessService } from './health/readiness.service.js';
export {
  createServiceLogger,
  REDACTED_PATHS,
  type ServiceLogger,
  taskLogger,
} from './logging/create-logger.js';
export { PinoNestLogger } from './logging/pino-nest-logger.js';
export {
  Counter,
  Gauge,
  type Labels,
  MetricsRegistry,
  registerProcessMetrics,
} from './metrics/metrics-registry.js';
export { FAMILIES } from './runs/families.js';
export { buildRunContext, clusterLimiters, runLogger } from './runs/run-context.js';
export { JOB_HANDLERS, STAGE_QUEUES, StageConsumer } from './runs/stage-consumer.js';
export { type StageConsumerConfig, startStageConsumers } from './runs/start-stage-consumers.js';
export { workerMetrics } from './runs/worker-metrics.js';
export { ShutdownState } from './shutdown/shutdown-state.js';
export { ImportDatasetJob } from './tasks/import-dataset.job.js';
export { IngestJobModule } from './tasks/ingest-job.module.js';
export {
  INGEST_TASK_KIND,
  type IngestTaskPayload,
  type IngestTaskResult,
  parseIngestTaskPayload,
} from './tasks/ingest-task.js';
export { TaskCompletionWatcher } from './tasks/task-completion-watcher.js';
