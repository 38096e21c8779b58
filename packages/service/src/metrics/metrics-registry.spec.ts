import { describe, expect, it } from '@jest/globals';
import { MetricsRegistry } from './metrics-registry.js';

describe('MetricsRegistry', () => {
  it('renders counters and gauges in the Prometheus text format', () => {
    const r = new MetricsRegistry();
    const tasks = r.counter('precis_tasks_total', 'tasks handled');
    tasks.inc({ stage: 'ingest', outcome: 'done' });
    tasks.inc({ outcome: 'done', stage: 'ingest' }, 2);
    r.gauge('in_flight', 'now').set({ stage: 'say "hi"\n' }, 3);
    expect(r.render()).toBe(
      [
        '# HELP precis_tasks_total tasks handled',
        '# TYPE precis_tasks_total counter',
        'precis_tasks_total{outcome="done",stage="ingest"} 3',
        '# HELP in_flight now',
        '# TYPE in_flight gauge',
        'in_flight{stage="say \\"hi\\"\\n"} 3',
        '',
      ].join('\n'),
    );
  });

  it('returns the same metric for the same name and refuses a type clash', () => {
    const r = new MetricsRegistry();
    expect(r.counter('a', 'x')).toBe(r.counter('a', 'x'));
    expect(() => r.gauge('a', 'x')).toThrow('metric a is already registered as a counter');
    expect(() => r.counter('bad-name', 'x')).toThrow('not a valid Prometheus name');
    expect(() => r.counter('a', 'x').inc({}, -1)).toThrow('cannot decrease');
  });

  it('runs collectors before rendering', () => {
    const r = new MetricsRegistry();
    const g = r.gauge('ticks', 'collected');
    let n = 0;
    r.onCollect(() => g.set({}, ++n));
    r.render();
    expect(r.render()).toContain('ticks 2');
  });
});
