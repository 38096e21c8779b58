import type { WorkerMetrics } from '@precis/engine';
import type { MetricsRegistry } from '../metrics/metrics-registry.js';

// The stage workers' counters on this service's /metrics.
export function workerMetrics(metrics: MetricsRegistry): WorkerMetrics {
  const handled = metrics.counter('precis_tasks_total', 'tasks handled, by stage, kind and outcome');
  const busy = metrics.gauge('precis_tasks_in_flight', 'tasks being handled now');
  const seconds = metrics.counter('precis_task_seconds_total', 'time spent in task handlers, by stage');
  return {
    handled: (stage, kind, outcome) => handled.inc({ stage, kind, outcome }),
    busy: (stage, delta) => (delta > 0 ? busy.inc({ stage }) : busy.dec({ stage })),
    handlerSeconds: (stage, s) => seconds.inc({ stage }, s),
  };
}
