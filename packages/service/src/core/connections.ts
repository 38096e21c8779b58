import type { Bus } from '@precis/bus';
import { createInProcessBus, createNatsBus } from '@precis/bus';
import { createDataSource } from '@precis/db';
import type { DataSource } from 'typeorm';
import { redactUrl } from '../config/env-schema.js';
import type { ServiceLogger } from '../logging/create-logger.js';
import { retryUntil } from './retry-until.js';

export interface DatabaseSettings {
  url: string;
  // Embedded mode (`precis serve`): this PGlite directory instead of the URL.
  pgliteDir?: string;
  runMigrations: boolean;
  poolSize?: number;
  preparedStatements?: boolean;
  startupTimeoutMs: number;
}

export async function connectDatabase(
  settings: DatabaseSettings,
  logger: ServiceLogger,
): Promise<DataSource> {
  const log = logger.child({ component: 'database' });
  if (settings.pgliteDir) {
    const ds = await createDataSource({ pgliteDir: settings.pgliteDir });
    log.info({ pgliteDir: settings.pgliteDir }, 'embedded database opened');
    return ds;
  }
  const ds = await retryUntil(
    () =>
      createDataSource({
        url: settings.url,
        runMigrations: settings.runMigrations,
        poolSize: settings.poolSize,
        preparedStatements: settings.preparedStatements,
      }),
    {
      what: `PostgreSQL at ${redactUrl(settings.url)}`,
      timeoutMs: settings.startupTimeoutMs,
      logger: log,
    },
  );
  log.info({ migrations: settings.runMigrations ? 'applied' : 'skipped' }, 'database connected');
  return ds;
}

export interface BusSettings {
  servers: string[];
  // Embedded mode (`precis serve`): the in-process bus, no NATS.
  inProcess?: boolean;
  prefix: string | undefined;
  connectionName: string;
  startupTimeoutMs: number;
}

export async function connectBus(settings: BusSettings, logger: ServiceLogger): Promise<Bus> {
  const log = logger.child({ component: 'bus' });
  if (settings.inProcess) return createInProcessBus();
  const bus = await retryUntil(
    () =>
      createNatsBus({
        servers: settings.servers,
        prefix: settings.prefix,
        name: settings.connectionName,
        onError: (err) => log.error({ err }, 'bus error'),
        // Once per outage: the client then reconnects forever, with backoff and jitter.
        onConnectionEvent: (e) =>
          e.type === 'disconnected'
            ? log.warn({ server: e.server }, 'lost the NATS connection; reconnecting (not ready meanwhile)')
            : log.info({ server: e.server, downMs: e.downMs }, 'NATS connection restored'),
      }),
    {
      what: `NATS at ${settings.servers.map(redactUrl).join(',')}`,
      timeoutMs: settings.startupTimeoutMs,
      logger: log,
    },
  );
  log.info({ prefix: settings.prefix ?? null }, 'bus connected');
  return bus;
}
