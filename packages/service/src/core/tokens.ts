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
