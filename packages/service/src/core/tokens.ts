// Injection tokens of the service kit. Apps inject the validated config with
// `@Inject(SERVICE_CONFIG) config: EnvConfig<typeof MY_ENV>`.
export const SERVICE_CONFIG = Symbol.for('precis.service.config');
export const SERVICE_INFO = Symbol.for('precis.service.info');
export const SERVICE_LOGGER = Symbol.for('precis.service.logger');
export const BUS = Symbol.for('precis.service.bus');

export interface ServiceInfo {
  name: string;
  version: string;
  startedAt: Date;
}

// A level for the workers' own lines (a few per task), e.g. 'warn' in `precis serve`, whose log
// shows one line per request.
export const WORKER_LOG_LEVEL = Symbol.for('precis.service.worker-log-level');
