import { type DestinationStream, type Level, type Logger, pino } from 'pino';
import type { LogLevelName } from '../config/common-env.js';

export type ServiceLogger = Logger;

export interface ServiceLoggerOptions {
  service: string;
  version: string;
  level: LogLevelName;
  // Defaults to a synchronous stdout writer, so nothing is lost when the process exits.
  destination?: DestinationStream;
}

// Keys that may hold credentials anywhere in a log line's fields.
export const REDACTED_PATHS = [
  'password',
  '*.password',
  'apiKey',
  '*.apiKey',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers.cookie',
  '*.headers.cookie',
];

// JSON lines with the service name and version on every line; children add run/task ids.
export function createServiceLogger(opts: ServiceLoggerOptions): ServiceLogger {
  return pino(
    {
      level: opts.level,
      base: { service: opts.service, version: opts.version, pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    opts.destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

export interface TaskLogFields {
  taskId: string;
  runId?: string | null;
  stage?: string;
  kind?: string;
}

// Correlation ids on every line about one task.
export function taskLogger(logger: ServiceLogger, fields: TaskLogFields): ServiceLogger {
  const bindings: Record<string, string> = { taskId: fields.taskId };
  if (fields.runId) bindings.runId = fields.runId;
  if (fields.stage) bindings.stage = fields.stage;
  if (fields.kind) bindings.kind = fields.kind;
  return logger.child(bindings);
}

// A worker's logger: its lines at the level WORKER_LOG_LEVEL sets, when one is provided.
export function workerLogger(logger: ServiceLogger, level: Level | undefined): ServiceLogger {
  return logger.child({ component: 'worker' }, level ? { level } : {});
}
