// A minimal Prometheus registry (text exposition format 0.0.4): counters and gauges with labels,
// plus collectors that refresh gauges right before a scrape. Enough for task throughput, in-flight
// work and process figures without pulling in a client library.

import { databaseStatements } from '@precis/db';

export type Labels = Record<string, string>;

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

function escapeLabel(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
}

function labelKey(labels: Labels): string {
  const keys = Object.keys(labels).sort();
  if (keys.length === 0) return '';
  return `{${keys.map((k) => `${k}="${escapeLabel(labels[k] ?? '')}"`).join(',')}}`;
}

function formatValue(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Number.POSITIVE_INFINITY) return '+Inf';
  if (v === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(v);
}

abstract class Metric {
  protected readonly values = new Map<string, number>();
  abstract readonly type: 'counter' | 'gauge';

  constructor(
    readonly name: string,
    readonly help: string,
  ) {
    if (!NAME.test(name))
      throw new Error(`metric name ${JSON.stringify(name)} is not a valid Prometheus name`);
  }

  render(): string {
    const lines = [
      `# HELP ${this.name} ${this.help.replace(/\n/g, ' ')}`,
      `# TYPE ${this.name} ${this.type}`,
    ];
    for (const [key, value] of this.values) lines.push(`${this.name}${key} ${formatValue(value)}`);
    return lines.join('\n');
  }

  get(labels: Labels = {}): number {
    return this.values.get(labelKey(labels)) ?? 0;
  }
}

export class Counter extends Metric {
  readonly type = 'counter';

  inc(labels: Labels = {}, by = 1): void {
    if (by < 0) throw new Error(`counter ${this.name} cannot decrease (inc by ${by})`);
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }
}

export class Gauge extends Metric {
  readonly type = 'gauge';

  set(labels: Labels, value: number): void {
    this.values.set(labelKey(labels), value);
  }

  inc(labels: Labels = {}, by = 1): void {
    const key = labelKey(labels);
    this.values.set(key, (this.values.get(key) ?? 0) + by);
  }

  dec(labels: Labels = {}, by = 1): void {
    this.inc(labels, -by);
  }
}

export class MetricsRegistry {
  private readonly metrics = new Map<string, Metric>();
  private readonly collectors: (() => void)[] = [];

  counter(name: string, help: string): Counter {
    return this.register(name, () => new Counter(name, help), Counter);
  }

  gauge(name: string, help: string): Gauge {
    return this.register(name, () => new Gauge(name, help), Gauge);
  }

  // Runs before every render, e.g. to read process memory into a gauge.
  onCollect(collector: () => void): void {
    this.collectors.push(collector);
  }

  render(): string {
    for (const collect of this.collectors) collect();
    return `${[...this.metrics.values()].map((m) => m.render()).join('\n')}\n`;
  }

  private register<M extends Metric>(
    name: string,
    create: () => M,
    type: abstract new (...args: never[]) => M,
  ): M {
    const existing = this.metrics.get(name);
    if (existing) {
      if (!(existing instanceof type))
        throw new Error(`metric ${name} is already registered as a ${existing.type}`);
      return existing;
    }
    const metric = create();
    this.metrics.set(name, metric);
    return metric;
  }
}

// Process figures every service exposes.
export function registerProcessMetrics(
  registry: MetricsRegistry,
  info: { service: string; version: string },
): void {
  registry.gauge('precis_service_info', 'service name and version (always 1)').set(info, 1);
  const uptime = registry.gauge('process_uptime_seconds', 'seconds since the process started');
  const rss = registry.gauge('process_resident_memory_bytes', 'resident set size');
  const heap = registry.gauge('nodejs_heap_used_bytes', 'V8 heap in use');
  const statements = registry.counter('precis_db_statements_total', 'SQL statements sent to the database');
  let counted = 0;
  registry.onCollect(() => {
    const sent = databaseStatements();
    statements.inc({}, sent - counted);
    counted = sent;
    const mem = process.memoryUsage();
    uptime.set({}, Math.round(process.uptime() * 1000) / 1000);
    rss.set({}, mem.rss);
    heap.set({}, mem.heapUsed);
  });
}
