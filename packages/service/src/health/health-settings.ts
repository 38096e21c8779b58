import type { Stage } from '@precis/contracts';

export const HEALTH_SETTINGS = Symbol.for('precis.service.health-settings');

export interface HealthSettings {
  checkTimeoutMs: number;
  // Queues this service declares; the first one is used to probe JetStream.
  stages: Stage[];
}
