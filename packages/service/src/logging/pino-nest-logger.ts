import type { LoggerService } from '@nestjs/common';
import type { Level } from 'pino';
import type { ServiceLogger } from './create-logger.js';

const NEST_START_UP = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
  'NestMicroservice',
]);

// Nest calls `log(message, context)`, `error(message, stack, context)` and variants with extra
// params; this adapter turns them into structured pino lines (context as a field, stack kept).
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: ServiceLogger) {}

  // Nest's start-up lines (one per module and route) are detail: our own lines say when a service is up.
  log(message: unknown, ...params: unknown[]): void {
    const context = params.at(-1);
    this.write(typeof context === 'string' && NEST_START_UP.has(context) ? 'debug' : 'info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  // The level comes from LOG_LEVEL; Nest's own level list is ignored on purpose.
  setLogLevels(): void {}

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.logger.isLevelEnabled(level)) return;
    // Nest passes `undefined` for absent stacks/contexts.
    const rest = params.filter((p) => p !== undefined && p !== null);
    const fields: Record<string, unknown> = {};
    // Nest passes the context (class name) as the last string argument.
    if (rest.length > 0 && typeof rest[rest.length - 1] === 'string') fields.context = rest.pop();
    if (level === 'error' || level === 'fatal') {
      const stack = rest.find((p): p is string => typeof p === 'string' && /\n\s+at /.test(p));
      if (stack) {
        fields.stack = stack;
        rest.splice(rest.indexOf(stack), 1);
      }
    }
    const errParam = rest.find((p): p is Error => p instanceof Error);
    if (errParam) {
      fields.err = errParam;
      rest.splice(rest.indexOf(errParam), 1);
    }
    if (rest.length > 0) fields.params = rest;
    if (message instanceof Error) {
      fields.err = message;
      this.logger[level](fields, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...(message as Record<string, unknown>) });
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
