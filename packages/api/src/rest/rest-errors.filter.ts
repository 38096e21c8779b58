import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import { GrpcException } from '@nestjs/microservices';
import { RunNotFoundError } from '@precis/engine';
import { ZodError } from 'zod';

// gRPC status -> HTTP status for the errors the shared services raise.
const HTTP: Record<number, number> = { 3: 400, 5: 404, 6: 409, 7: 403, 9: 409, 16: 401 };

// REST errors as `{ "error": message }` with the status that says what kind of problem it is.
@Catch()
export class RestErrorsFilter implements ExceptionFilter {
  catch(err: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<{ status(n: number): { json(b: unknown): void } }>();
    if (err instanceof HttpException) {
      const body = err.getResponse();
      const message = typeof body === 'string' ? body : (body as { message?: unknown }).message;
      res
        .status(err.getStatus())
        .json({ error: Array.isArray(message) ? message.join('; ') : String(message) });
      return;
    }
    if (err instanceof GrpcException) {
      res.status(HTTP[err.getCode()] ?? 500).json({ error: err.message });
      return;
    }
    if (err instanceof ZodError) {
      const where = (i: ZodError['issues'][number]) => (i.path.length ? `${i.path.join('.')}: ` : '');
      res.status(400).json({ error: err.issues.map((i) => `${where(i)}${i.message}`).join('; ') });
      return;
    }
    if (err instanceof RunNotFoundError) {
      res.status(404).json({ error: err.message });
      return;
    }
    res.status(500).json({ error: 'internal error (see the gateway log)' });
  }
}
