import { bool, int, intList, oneOf, port, str, url, urlList } from './env-schema.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

// Variables every service reads. The HTTP port (health and metrics) differs per service so that
// all of them can run side by side on one machine.
export function commonEnv(defaults: { httpPort: number }) {
  return {
    LOG_LEVEL: oneOf({ values: LOG_LEVELS, default: 'info', description: 'minimum level of the JSON logs' }),
    HTTP_HOST: str({ default: '0.0.0.0', description: 'address the health/metrics HTTP server binds to' }),
    HTTP_PORT: port({
      default: defaults.httpPort,
      description:
        'port of the HTTP server (/health/live, /health/ready, /metrics; the gateway also serves /api)',
    }),
    DATABASE_URL: url({
      protocols: ['postgres', 'postgresql'],
      default: 'postgres://postgres@127.0.0.1:5432/postgres',
      description: 'PostgreSQL connection URL (a password in it is never logged)',
    }),
    DATABASE_POOL_SIZE: int({
      default: 20,
      min: 1,
      max: 500,
      description:
        "PostgreSQL connections this process may open; all processes together must stay under the server's max_connections",
    }),
    DATABASE_PREPARED_STATEMENTS: bool({
      default: true,
      description:
        "run the task path's statements as prepared statements; false behind a connection pooler in transaction mode that does not keep them",
    }),
    DATABASE_RUN_MIGRATIONS: bool({
      default: true,
      description: 'apply pending database migrations at startup',
    }),
    NATS_URL: urlList({
      protocols: ['nats', 'tls'],
      default: ['nats://127.0.0.1:4222'],
      description: 'NATS server URL(s) with JetStream enabled, comma-separated',
    }),
    PRECIS_BUS_PREFIX: str({
      optional: true,
      pattern: /^[A-Za-z][A-Za-z0-9_-]{0,63}$/,
      patternHint: 'a letter followed by up to 63 letters, digits, _ or -',
      description: 'isolates stream and subject names (one prefix per test run or tenant); unset = none',
    }),
    PRECIS_FAMILIES: str({
      optional: true,
      description:
        'benchmark families to load beside the shipped ones: package names or paths to built modules, comma-separated (docs/adding-a-benchmark.md)',
    }),
    STARTUP_TIMEOUT_MS: int({
      default: 30000,
      min: 0,
      max: 600000,
      description: 'how long to keep retrying PostgreSQL and NATS at startup before giving up',
    }),
    SHUTDOWN_TIMEOUT_MS: int({
      default: 25000,
      min: 100,
      max: 600000,
      description: 'graceful shutdown budget: in-flight work past it is abandoned (and redelivered later)',
    }),
    READY_CHECK_TIMEOUT_MS: int({
      default: 2000,
      min: 100,
      max: 60000,
      description: 'timeout of each readiness check (database, NATS)',
    }),
  };
}

export type CommonEnvSchema = ReturnType<typeof commonEnv>;

// Variables of services that pull tasks from a stage queue.
export function workerEnv(defaults: { concurrency: number }) {
  return {
    WORKER_CONCURRENCY: int({
      default: defaults.concurrency,
      min: 1,
      max: 1024,
      description: 'tasks handled at the same time by this process',
    }),
    TASK_MAX_DELIVER: int({
      default: 5,
      min: 1,
      max: 100,
      description:
        'attempts of a failing task before it is dead-lettered (outages of the database or bus do not count)',
    }),
    TASK_RETRY_DELAYS_MS: intList({
      default: [1000, 5000, 15000, 30000],
      min: 0,
      max: 3600000,
      description: 'delay before each redelivery of a failed task (the last one repeats)',
    }),
    TASK_ACK_WAIT_MS: int({
      default: 30000,
      min: 1000,
      max: 3600000,
      description: 'redeliver a task when its worker sent no ack or heartbeat for this long',
    }),
  };
}

export type WorkerEnvSchema = ReturnType<typeof workerEnv>;
