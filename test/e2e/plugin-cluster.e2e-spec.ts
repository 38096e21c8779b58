// A summarizer plugin in cluster mode: the example plugin as its own process, called by the
// summarization service for every step of a run submitted to the gateway, with the same summaries
// as the embedded runtime and every call in the ledger.
// Needs the build: `npx turbo run build` (services run from dist).
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import { type RunningPlugin, startExamplePlugin } from '../support/plugins.js';
import { builtInFamilies, validateSpec } from '../support/precis.js';
import { embeddedOutcome } from './embedded-runs.js';
import { clusterOutcome, repoRoot, tempDir } from './runs-support.js';

// No system uses a model; the services still read a registry.
const REGISTRY = {
  models: { unused: { baseURL: 'http://127.0.0.1:9/v1', model: 'unused', contextWindow: 8192 } },
};

const spec = (address: string) =>
  validateSpec(builtInFamilies, {
    name: 'plugin-cluster',
    datasets: [
      { name: 'book', kind: 'text', path: resolve(repoRoot, 'examples/data/the-lighthouse-keeper.md') },
    ],
    systems: [
      {
        name: 'plugin-lead',
        strategy: 'hierarchical',
        plugin: { address, maxConcurrency: 2 },
        params: { chunkSize: 256, levelBudgets: [60, 120] },
      },
    ],
    metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
  });

// The run's summaries and its plugin calls in the ledger.
async function outcome(db: DataSource, runId: string) {
  const summaries: { system: string; text: string; producer: string }[] = await db.query(
    'SELECT system, text, producer FROM summaries WHERE run_id = $1 ORDER BY system',
    [runId],
  );
  const [calls] = await db.query(
    `SELECT COUNT(*)::int AS n FROM llm_calls WHERE run_id = $1 AND kind = 'plugin' AND status = 'ok'`,
    [runId],
  );
  return { summaries, calls: calls.n as number };
}

describe('summarizer plugins across the services', () => {
  const tmp = tempDir('precis-plugin-cluster-');
  let plugin: RunningPlugin;
  let address: string;

  beforeAll(async () => {
    plugin = await startExamplePlugin();
    address = plugin.address;
  });

  afterAll(() => {
    plugin?.stop();
    tmp.remove();
  });

  it('gives the embedded summaries when the summarization service calls the plugin', async () => {
    const expected = await embeddedOutcome({
      name: 'plugin',
      registry: REGISTRY,
      spec: spec(address),
      concurrency: 4,
      outcome,
    });
    expect(expected.calls).toBeGreaterThan(1);
    const got = await clusterOutcome({
      name: 'plugin',
      registry: REGISTRY,
      dir: tmp.dir,
      spec: spec(address),
      cluster: { verifiers: 1, concurrency: 4 },
      outcome,
    });
    expect(got).toEqual(expected);
    expect(expected.summaries[0]!.producer).toBe(`plugin:${address}`);
  }, 180_000);
});
