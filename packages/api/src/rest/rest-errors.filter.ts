import type { IncomingMessage } from 'node:http';
import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { isBusUnavailableError } from '@precis/bus';
import { isDatabaseUnavailableError } from '@precis/db';
import { type DomainErrorKind, isDomainError, RunNotFoundError } from '@precis/engine';
import { requestIdOf, SERVICE_LOGGER, type ServiceLogger } from '@precis/service';
import { ZodError } from 'zod';

// The HTTP status of each kind of domain error the shared use cases and services raise.
export const HTTP_STATUS: Readonly<Record<DomainErrorKind, number>> = {
  'not-found': 404,
  'invalid-input': 400,
  conflict: 409,
  precondition: 409,
  permission: 403,
  limit: 429,
  unavailable: 503,
  deadline: 504,
  // Its text is replaced by the request id (see `safe`).
  internal: 500,
};

interface Answer {
  status: number;
  error: string;
}

type Reply = { headersSent: boolean; status(n: number): { json(b: unknown): void } };

// The path without its query string, whose values may be tokens.
const pathOf = (req: IncomingMessage & { originalUrl?: string }) =>
  (req.originalUrl ?? req.url ?? '').split('?')[0];

// REST errors as `{ "error": message, "requestId": id }` with the status that says what kind of
// problem it is. Every 5xx is logged at error level, with the stack, under the same request id;
// its text (hosts, SQL, runtime messages) stays in the log.
@Catch()
export class RestErrorsFilter implements ExceptionFilter {
  constructor(@Inject(SERVICE_LOGGER) private readonly logger: ServiceLogger) {}

  catch(err: unknown, host: ArgumentsHost): void {
    const req = host.switchToHttp().getRequest<IncomingMessage>();
    const res = host.switchToHttp().getResponse<Reply>();
    const requestId = requestIdOf(req);
    const { status, error } = answer(err, requestId);
    if (status >= 500) {
      const method = req.method ?? '';
      const path = pathOf(req);
      this.logger.error(
        { err, requestId, method, path, status },
        `REST ${method} ${path} answered ${status}`,
      );
    }
    // An event stream already under way has no status line left to change.
    if (!res.headersSent) res.status(status).json({ error, requestId });
  }
}

function answer(err: unknown, requestId: string): Answer {
  if (err instanceof HttpException) {
    const body = err.getResponse();
    const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
    const text = Array.isArray(message) ? message.join('; ') : String(message);
    return safe(err.getStatus(), text, requestId);
  }
  if (isDomainError(err)) return safe(HTTP_STATUS[err.kind], err.message, requestId);
  if (err instanceof ZodError) {
    const where = (i: ZodError['issues'][number]) => (i.path.length ? `${i.path.join('.')}: ` : '');
    return { status: 400, error: err.issues.map((i) => `${where(i)}${i.message}`).join('; ') };
  }
  if (err instanceof RunNotFoundError) return { status: 404, error: err.message };
  if (isDatabaseUnavailableError(err) || isBusUnavailableError(err))
    return {
      status: 503,
      error: `the gateway's database or message bus is unavailable; retry later (request id ${requestId})`,
    };
  return safe(500, '', requestId);
}

// Statuses that say what to do (retry later, not here); any other 5xx is an internal error.
const DELIBERATE_5XX = new Set([501, 503, 504]);

// An internal error never carries its own text.
function safe(status: number, error: string, requestId: string): Answer {
  if (status < 500 || DELIBERATE_5XX.has(status)) return { status, error };
  return {
    status: 500,
    error: `internal error (request id ${requestId}; the details are in the gateway's log)`,
  };
}
