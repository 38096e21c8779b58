import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { GrpcException, GrpcInternalException, GrpcUnavailableException } from '@nestjs/microservices';
import { isBusUnavailableError } from '@precis/bus';
import { isDatabaseUnavailableError } from '@precis/db';
import { isDomainError } from '@precis/engine';
import type { MetricsRegistry, ServiceLogger } from '@precis/service';
import { toGrpcException } from './domain-status.js';

const GRPC_CODE_NAMES = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

// Runs one gRPC call: counts it by method and status code, logs one line, answers a use case's
// domain error with its gRPC status and message, and turns an unexpected error into a safe
// status: UNAVAILABLE when the database or the bus is down (worth a retry), else INTERNAL with a
// reference to the log line; its text (hosts, ports, SQL) is only logged, never sent.
export async function observeCall<T>(
  deps: { metrics: MetricsRegistry; logger: ServiceLogger },
  method: string,
  // `fields` go into the call's log line (e.g. the caller's key name, once known).
  run: (fields: Record<string, unknown>) => Promise<T>,
  quiet = false,
): Promise<T> {
  const t0 = performance.now();
  const fields: Record<string, unknown> = {};
  let code = 0;
  try {
    return await run(fields);
  } catch (err) {
    const deliberate = isDomainError(err) ? toGrpcException(err) : err;
    if (deliberate instanceof GrpcException) {
      code = deliberate.getCode();
      throw deliberate;
    }
    const safe = safeException(method, err);
    deps.logger.error({ err, method, ...fields, reference: safe.reference }, 'gRPC call failed unexpectedly');
    code = safe.exception.getCode();
    throw safe.exception;
  } finally {
    const name = GRPC_CODE_NAMES[code] ?? String(code);
    const ms = Math.round(performance.now() - t0);
    deps.metrics
      .counter('precis_grpc_requests_total', 'gRPC calls by method and status code')
      .inc({ method, code: name });
    // Polling calls (GetRun every second) would flood the log: only their failures are logged.
    if (code !== 0 || !quiet)
      deps.logger[code === 0 ? 'info' : 'warn'](
        { method, code: name, ms, ...fields },
        `gRPC ${method} ${name}`,
      );
  }
}

export function safeException(method: string, err: unknown): { exception: GrpcException; reference: string } {
  const reference = randomUUID().slice(0, 8);
  if (isDatabaseUnavailableError(err) || isBusUnavailableError(err))
    return {
      reference,
      exception: new GrpcUnavailableException(
        `${method}: the gateway's database or message bus is unavailable; retry later (reference ${reference})`,
      ),
    };
  return {
    reference,
    exception: new GrpcInternalException(
      `${method} failed: internal error (reference ${reference}; the details are in the gateway's log)`,
    ),
  };
}
