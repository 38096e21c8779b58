import { performance } from 'node:perf_hooks';
import { GrpcException, GrpcInternalException } from '@nestjs/microservices';
import type { MetricsRegistry, ServiceLogger } from '@precis/service';

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

// Runs one gRPC call: counts it by method and status code, logs one line, and turns an
// unexpected error into INTERNAL with its message (the stack stays in the log).
export async function observeCall<T>(
  deps: { metrics: MetricsRegistry; logger: ServiceLogger },
  method: string,
  run: () => Promise<T>,
  quiet = false,
): Promise<T> {
  const t0 = performance.now();
  let code = 0;
  try {
    return await run();
  } catch (err) {
    if (err instanceof GrpcException) {
      code = err.getCode();
      throw err;
    }
    deps.logger.error({ err, method }, 'gRPC call failed unexpectedly');
    const internal = new GrpcInternalException(
      `${method} failed: ${err instanceof Error ? err.message : String(err)}`,
    );
    code = internal.getCode();
    throw internal;
  } finally {
    const name = GRPC_CODE_NAMES[code] ?? String(code);
    const ms = Math.round(performance.now() - t0);
    deps.metrics
      .counter('precis_grpc_requests_total', 'gRPC calls by method and status code')
      .inc({ method, code: name });
    // Polling calls (GetRun every second) would flood the log: only their failures are logged.
    if (code !== 0 || !quiet)
      deps.logger[code === 0 ? 'info' : 'warn']({ method, code: name, ms }, `gRPC ${method} ${name}`);
  }
}
