// The faults the chaos test applies to a running cluster, one after another at seeded random
// moments: SIGKILLs of random service processes (each started again at once), one NATS restart
// and one PostgreSQL restart.
import { seededRandom, type ThrowawayNats, type ThrowawayPostgres } from '@precis/testing';
import type { ServiceName } from '../../packages/service/test/support/service-process.js';
import type { Cluster } from '../e2e/runs-support.js';
import type { ChaosPlan } from './chaos-workload.js';

export interface ChaosEvent {
  // ms after the run was submitted
  at: number;
  what: 'kill' | 'nats restart' | 'postgres restart';
  target: string;
  // How long the process or server was away (kill to ready again, stop to started).
  downMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// Process ids of the cluster (see startCluster) and the service each runs.
function targets(plan: ChaosPlan): [string, ServiceName][] {
  return [
    ['gateway', 'gateway'],
    ['summarization', 'summarization'],
    ['scoring', 'scoring'],
    ...Array.from({ length: plan.verifiers }, (_, i): [string, ServiceName] => [
      `verifier-${i + 1}`,
      'verifier',
    ]),
  ];
}

// The events in order: the kills, with the NATS restart after a third of them and the
// PostgreSQL restart after two thirds.
function schedule(plan: ChaosPlan): ChaosEvent['what'][] {
  const events: ChaosEvent['what'][] = Array.from({ length: plan.kills }, () => 'kill');
  if (plan.restartPostgres) events.splice(Math.floor((2 * plan.kills) / 3), 0, 'postgres restart');
  if (plan.restartNats) events.splice(Math.floor(plan.kills / 3), 0, 'nats restart');
  return events;
}

export interface ChaosTargets {
  cluster: Cluster;
  nats: ThrowawayNats;
  pg: ThrowawayPostgres;
  // False once the run has finished: the chaos then stops with an error (the run was too short).
  runOpen(): Promise<boolean>;
  log(line: string): void;
}

// Applies the plan's faults, 0.5-2 s apart, and returns what was done. Throws when the run
// finished before the last fault: a chaos test that stopped early proves less than it claims.
export async function applyChaos(
  plan: ChaosPlan,
  t: ChaosTargets,
  submittedAt: number,
): Promise<ChaosEvent[]> {
  // Seeded: the same plan kills the same processes in the same order.
  const rnd = seededRandom(plan.seed);
  const done: ChaosEvent[] = [];
  const events = schedule(plan);
  for (const [i, what] of events.entries()) {
    await sleep(500 + Math.floor(rnd() * 1_500));
    if (!(await t.runOpen()))
      throw new Error(
        `the run finished after ${done.length} of ${events.length} faults: give it more work (PRECIS_CHAOS_DOCUMENTS) or a slower model (PRECIS_CHAOS_LATENCY_MS)`,
      );
    const at = Date.now() - submittedAt;
    const started = Date.now();
    let target: string;
    if (what === 'kill') {
      const all = targets(plan);
      const [id, name] = all[Math.floor(rnd() * all.length)]!;
      target = id;
      await t.cluster.procs.get(id)!.stop('SIGKILL');
      await t.cluster.start(id, name);
    } else if (what === 'nats restart') {
      target = t.nats.url;
      await t.nats.stop();
      await sleep(1_000);
      await t.nats.start();
    } else {
      target = t.pg.url;
      await t.pg.stop({ mode: 'immediate' });
      await sleep(1_000);
      await t.pg.start();
    }
    const event = { at, what, target, downMs: Date.now() - started };
    done.push(event);
    t.log(`chaos ${i + 1}/${events.length}: ${what} ${target} at ${at} ms, back after ${event.downMs} ms`);
  }
  return done;
}
