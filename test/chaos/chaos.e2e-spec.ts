// The chaos test: the services as separate processes run a model-backed leaderboard while random
// processes are SIGKILLed, NATS and PostgreSQL restarted and the model answers some requests with
// 429s, 500s or nothing; the report must equal a fault-free run's, nothing lost or duplicated.
// `npm test` runs this small form; `npm run chaos` the full one (PRECIS_CHAOS_* variables, see
// chaos-workload.ts). The outcome is written to .turbo/test-results/chaos.json.
// Needs the build: `npx turbo run build`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { repoRoot, tempDir } from '../e2e/runs-support.js';
import { type ChaosOutcome, runChaos } from './chaos-run.js';
import { planFromEnv } from './chaos-workload.js';

const plan = planFromEnv(process.env, {
  documents: 3,
  words: 800,
  kills: 3,
  restartNats: true,
  restartPostgres: true,
  faultRate: 0.05,
  seed: 1,
  latencyMs: 400,
  verifiers: 2,
  concurrency: 2,
});
const TIMEOUT_MS = Number(process.env.PRECIS_CHAOS_TIMEOUT_MS ?? 420_000);

function summary(o: ChaosOutcome): string {
  const faults = Object.entries(o.faults)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return [
    `chaos: ${o.events.length} faults (${o.events.map((e) => `${e.what} ${e.target}`).join('; ')})`,
    `results lost ${o.lost}, duplicated ${o.duplicated}; followed through ${o.gatewayOutages} gateway outages; run wall ${(o.wallMs / 1000).toFixed(1)} s; tasks ${o.counts.tasks} (${o.counts.tasksDone} done), ${o.tasksRunAgain} run more than once`,
    `model calls answered ${o.completedChats} vs ${o.baselineChats} fault-free: ${o.completedChats - o.baselineChats} extra; model faults injected: ${faults || 'none'}`,
    `calls repeated after faults ${o.repeatedCalls} (as runs show counts them); cache hits ${o.counts.cacheHits}`,
  ].join('\n');
}

describe('the cluster under chaos', () => {
  const tmp = tempDir('precis-chaos-');
  afterAll(() => tmp.remove());

  it(
    'reports exactly what a fault-free run reports, with nothing lost or duplicated',
    async () => {
      const outcome = await runChaos(plan, tmp.dir, (line) => process.stderr.write(`${line}\n`));
      const results = join(repoRoot, '.turbo', 'test-results');
      mkdirSync(results, { recursive: true });
      writeFileSync(join(results, 'chaos.json'), `${JSON.stringify(outcome, null, 2)}\n`);
      process.stderr.write(`${summary(outcome)}\n`);

      expect(outcome.events.map((e) => e.what).sort()).toEqual(
        [
          ...Array.from({ length: plan.kills }, () => 'kill'),
          ...(plan.restartNats ? ['nats restart'] : []),
          ...(plan.restartPostgres ? ['postgres restart'] : []),
        ].sort(),
      );
      expect(outcome.report).toEqual(outcome.baselineReport);
      // Every task done once; the same summaries, judgments and values: none lost, none twice.
      expect({ lost: outcome.lost, duplicated: outcome.duplicated }).toEqual({ lost: 0, duplicated: 0 });
      const { modelCalls: _m, cacheHits: _c, ...rows } = outcome.counts;
      const { modelCalls: _bm, cacheHits: _bc, ...baseRows } = outcome.baselineCounts;
      expect(rows).toEqual(baseRows);
      expect(outcome.counts.tasksDone).toBe(outcome.counts.tasks);
      if (plan.faultRate > 0)
        expect(Object.values(outcome.faults).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    },
    TIMEOUT_MS,
  );
});
