import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { type DynamicModule, type INestApplication, Module, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { Stage } from '@precis/contracts';
import { FamilyLoadError, loadFamilies } from '@precis/families';
import { type DestinationStream, pino } from 'pino';
import type { CommonEnvSchema } from '../config/common-env.js';
import type { EnvConfig, EnvSchema } from '../config/env-schema.js';
import { ConfigError, describeConfig, validateEnv } from '../config/validate-env.js';
import { bootGate } from '../logging/boot-gate.js';
import { createServiceLogger, type ServiceLogger } from '../logging/create-logger.js';
import { PinoNestLogger } from '../logging/pino-nest-logger.js';
import { MetricsRegistry, registerProcessMetrics } from '../metrics/metrics-registry.js';
import { ShutdownState } from '../shutdown/shutdown-state.js';
import { configureHttpServer } from './http-server.js';
import { ServiceCoreModule } from './service-core.module.js';

export interface ServiceOptions<S extends EnvSchema> {
  // Service name on every log line and metric (e.g. 'gateway').
  name: string;
  // The app's package.json (its version is logged and exposed); e.g. new URL('../package.json', import.meta.url).
  packageJson: URL;
  env: S;
  // Work queues the service declares at startup.
  stages?: Stage[];
  // Extra servers (e.g. a gRPC microservice) attached before listening.
  configure?: (app: INestApplication, config: EnvConfig<S>, logger: ServiceLogger) => void | Promise<void>;
  // One process with the embedded database in this directory and the in-process bus.
  embedded?: { pgliteDir: string };
  // For tests: the environment to validate (default process.env) and whether signals/exit are handled.
  processEnv?: Record<string, string | undefined>;
  handleSignals?: boolean;
  // For tests: where the JSON log lines go (default stdout).
  logDestination?: DestinationStream;
  // Log nothing below warn until started (the caller prints its own first lines).
  quietStart?: boolean;
}

export interface RunningService<S extends EnvSchema> {
  app: INestApplication;
  config: EnvConfig<S>;
  logger: ServiceLogger;
  // Graceful stop: not ready, stop consuming, finish in-flight work, close servers and connections.
  shutdown(reason: string): Promise<void>;
}

@Module({})
class ServiceRootModule {}

function readVersion(packageJson: URL): string {
  try {
    const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

// The configuration worth logging: an embedded service uses no PostgreSQL or NATS settings.
function shownConfig<S extends EnvSchema>(
  schema: S,
  config: EnvConfig<S>,
  embedded: ServiceOptions<S>['embedded'],
): Record<string, string> {
  const all = describeConfig(schema, config);
  if (!embedded) return all;
  const shown = Object.entries(all).filter(([name]) => !/^(DATABASE|NATS)_/.test(name));
  return { ...Object.fromEntries(shown), pgliteDir: embedded.pgliteDir };
}

// The service core (config, logger, metrics, database, bus, health) around the app's module.
function rootModule<S extends EnvSchema>(
  appModule: Type | DynamicModule,
  name: string,
  info: { version: string; startedAt: Date },
  config: EnvConfig<S>,
  logger: ServiceLogger,
  metrics: MetricsRegistry,
  stages: Stage[],
  embedded: { pgliteDir: string } | undefined,
): DynamicModule {
  const common = config as unknown as EnvConfig<CommonEnvSchema>;
  return {
    module: ServiceRootModule,
    imports: [
      ServiceCoreModule.forRoot({
        info: { name, ...info },
        config,
        logger,
        metrics,
        database: {
          url: common.DATABASE_URL,
          pgliteDir: embedded?.pgliteDir,
          runMigrations: common.DATABASE_RUN_MIGRATIONS,
          poolSize: common.DATABASE_POOL_SIZE,
          preparedStatements: common.DATABASE_PREPARED_STATEMENTS,
          startupTimeoutMs: common.STARTUP_TIMEOUT_MS,
        },
        bus: {
          servers: common.NATS_URL,
          inProcess: embedded !== undefined,
          prefix: common.PRECIS_BUS_PREFIX,
          connectionName: `precis-${name}`,
          startupTimeoutMs: common.STARTUP_TIMEOUT_MS,
        },
        stages,
        readyCheckTimeoutMs: common.READY_CHECK_TIMEOUT_MS,
      }),
      appModule,
    ],
  };
}

// SIGTERM/SIGINT: a graceful shutdown bounded by timeoutMs, then exit 0 (1 if it fails or hangs).
function onSignals(
  logger: ServiceLogger,
  timeoutMs: number,
  shutdown: (reason: string) => Promise<void>,
  stopping: () => boolean,
  fail: (err: unknown, what: string) => never,
): void {
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping()) {
      logger.warn({ signal }, 'shutdown already in progress');
      return;
    }
    // A stuck handler must not keep the process alive forever: what is not acked is redelivered.
    setTimeout(() => {
      logger.error({ timeoutMs: timeoutMs }, 'graceful shutdown timed out; exiting');
      process.exit(1);
    }, timeoutMs).unref();
    shutdown(signal).then(
      () => process.exit(0),
      (err: unknown) => fail(err, 'error during shutdown'),
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

// Validates the environment, builds the logger, boots the Nest app (service core + the app's
// module), listens, and wires SIGTERM/SIGINT to a bounded graceful shutdown that exits 0.
// Configuration errors print one line on stderr and exit 1; startup errors log one fatal line.
export async function bootstrapService<S extends EnvSchema>(
  appModule: Type | DynamicModule,
  options: ServiceOptions<S>,
): Promise<RunningService<S>> {
  const startedAt = new Date();
  const handleSignals = options.handleSignals ?? true;
  let config: EnvConfig<S>;
  try {
    config = validateEnv(options.name, options.env, options.processEnv ?? process.env);
    // Every stage consumer, use case and report of this process reads the same loaded families.
    await loadFamilies(options.processEnv ?? process.env);
  } catch (err) {
    if ((err instanceof ConfigError || err instanceof FamilyLoadError) && handleSignals) {
      process.stderr.write(`${err instanceof FamilyLoadError ? `${options.name}: ` : ''}${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const common = config as unknown as EnvConfig<CommonEnvSchema>;
  const version = readVersion(options.packageJson);
  const gate = options.quietStart
    ? bootGate(options.logDestination ?? pino.destination({ dest: 1, sync: true }))
    : null;
  const logger = createServiceLogger({
    service: options.name,
    version,
    level: common.LOG_LEVEL,
    destination: gate?.destination ?? options.logDestination,
  });
  const fail = (err: unknown, what: string): never => {
    logger.fatal({ err }, `${what}: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  };
  if (handleSignals) {
    process.on('uncaughtException', (err) => fail(err, 'uncaught exception'));
    process.on('unhandledRejection', (err) => fail(err, 'unhandled promise rejection'));
  }
  logger.info(
    { config: shownConfig(options.env, config, options.embedded) },
    `starting ${options.name} ${version}`,
  );

  const metrics = new MetricsRegistry();
  registerProcessMetrics(metrics, { service: options.name, version });
  const stages = options.stages ?? [];
  const root = rootModule(
    appModule,
    options.name,
    { version, startedAt },
    config,
    logger,
    metrics,
    stages,
    options.embedded,
  );

  let app: INestApplication;
  try {
    app = await NestFactory.create(root, {
      logger: new PinoNestLogger(logger),
      // Throw instead of process.abort() so the failure is logged and the exit code is 1.
      abortOnError: false,
      // Keep-alive probe connections must not hold the HTTP server open during shutdown.
      forceCloseConnections: true,
    });
    configureHttpServer(app.getHttpServer());
    await options.configure?.(app, config, logger);
    await app.startAllMicroservices();
    await app.listen(common.HTTP_PORT, common.HTTP_HOST);
  } catch (err) {
    if (handleSignals) return fail(err, `${options.name} failed to start`);
    throw err;
  }
  logger.info({ httpPort: common.HTTP_PORT, stages }, `${options.name} started`);
  gate?.open();

  const state = app.get(ShutdownState);
  let stopping: Promise<void> | undefined;
  const shutdown = (reason: string): Promise<void> => {
    stopping ??= (async () => {
      state.begin(reason);
      logger.info({ reason }, `${options.name} shutting down`);
      await app.close();
      logger.info(`${options.name} stopped`);
    })();
    return stopping;
  };

  if (handleSignals)
    onSignals(logger, common.SHUTDOWN_TIMEOUT_MS, shutdown, () => stopping !== undefined, fail);
  return { app, config, logger, shutdown };
}
