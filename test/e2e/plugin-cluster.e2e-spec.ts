// A summarizer plugin in cluster mode: the example plugin as its own process, called by the
// summarization service for every step of a run submitted to the gateway, with the same summaries
// as the embedded runtime and every call in the ledger. The gateway and the summarization service
// each call only the addresses their PRECIS_PLUGIN_ADDRESSES lists, and store failures opaquely.
// Needs the build: `npx turbo run build` (services run from dist).
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase } from '@precis/db';
import type { DataSource } from 'typeorm';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import { freePort } from '../../packages/service/test/support/service-process.js';
import {
  connectionCounter,
  listenLocal,
  type RunningPlugin,
  startExamplePlugin,
  wordsThenHangUp,
} from '../support/plugins.js';
import { builtInFamilies, validateSpec } from '../support/precis.js';
import { embeddedOutcome } from './embedded-runs.js';
import {
  clusterOutcome,
  deleteBusStreams,
  repoRoot,
  startCluster,
  tempDir,
  writeJson,
} from './runs-support.js';

// No system uses a model; the services still read a registry.
const REGISTRY = {
  models: { unused: { baseURL: 'http://127.0.0.1:9/v1', model: 'unused', contextWindow: 8192 } },
};

const hier = { chunkSize: 256, levelBudgets: [60, 120] };
const book = {
  name: 'book',
  kind: 'text',
  path: resolve(repoRoot, 'examples/data/the-lighthouse-keeper.md'),
};

const spec = (address: string) =>
  validateSpec(builtInFamilies, {
    name: 'plugin-cluster',
    datasets: [book],
    systems: [
      { name: 'plugin-lead', strategy: 'hierarchical', plugin: { address, maxConcurrency: 2 }, params: hier },
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

  afterAll(async () => {
    await plugin?.stop();
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
      cluster: {
        verifiers: 1,
        concurrency: 4,
        env: {
          gateway: { PRECIS_PLUGIN_ADDRESSES: address },
          summarization: { PRECIS_PLUGIN_ADDRESSES: address },
        },
      },
      outcome,
    });
    expect(got).toEqual(expected);
    expect(expected.summaries[0]!.producer).toBe(`plugin:${address}`);
  }, 180_000);

  it('refuses at the summarization service what its own list lacks, and stores failures opaquely', async () => {
    const REMOTE_TEXT = 'remote words';
    const watch = connectionCounter();
    const garbage = wordsThenHangUp(REMOTE_TEXT);
    const [watched, open, closed] = [
      await listenLocal(watch.server),
      await listenLocal(garbage),
      `127.0.0.1:${await freePort()}`,
    ];
    const prefix = `e2e_plugin_policy_${randomBytes(4).toString('hex')}`;
    const tdb = await createThrowawayDatabase('e2e_plugin_policy');
    const db = await createDataSource({ url: tdb.url, runMigrations: true });
    // The gateway takes any local port; the worker only the plugin and the two failing ports.
    const c = await startCluster({
      databaseUrl: tdb.url,
      prefix,
      modelsFile: writeJson(join(tmp.dir, `models-${prefix}.json`), REGISTRY),
      verifiers: 1,
      env: {
        gateway: { PRECIS_PLUGIN_ADDRESSES: '127.0.0.1:*' },
        summarization: { PRECIS_PLUGIN_ADDRESSES: [address, open, closed].join(',') },
      },
    });
    const runs = new RemoteRuns(c.grpcAddress, c.access);
    try {
      const plugin = (name: string, a: string) => ({
        name,
        strategy: 'hierarchical',
        plugin: { address: a, maxRetries: 0 },
        params: hier,
      });
      const { run } = await runs.createRun(
        validateSpec(builtInFamilies, {
          name: 'plugin-policy',
          datasets: [book],
          systems: [
            plugin('allowed', address),
            plugin('unlisted', watched),
            plugin('closed', closed),
            plugin('open', open),
          ],
          metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
        }),
      );
      const { run: final } = await followRemoteRun(runs, run.id, { pollMs: 250 });
      expect(remoteRunStatus(final)).toBe('completed-with-failures');
      const errors: { system: string; error: string }[] = await db.query(
        `SELECT DISTINCT payload->>'system' AS system, error FROM tasks WHERE run_id = $1 AND status IN ('failed', 'dead') ORDER BY 1`,
        [run.id],
      );
      expect(errors).toEqual([
        { system: 'closed', error: `plugin ${closed} unreachable` },
        { system: 'open', error: `plugin ${open} unreachable` },
        {
          system: 'unlisted',
          error: `plugin address ${watched} is not allowed on this worker; the operator lists allowed ones in PRECIS_PLUGIN_ADDRESSES`,
        },
      ]);
      expect(watch.accepted()).toBe(0);
      expect(JSON.stringify([final, errors])).not.toContain(REMOTE_TEXT);
      // The summarization service's log has the detail.
      const logged = c.procs.get('summarization')!.logs.find((l) => l.plugin === closed);
      expect(logged).toMatchObject({
        msg: `plugin ${closed} unreachable`,
        detail: `plugin ${closed} is unreachable (connection refused): is it running?`,
      });
    } finally {
      runs.close();
      watch.server.close();
      garbage.close();
      await c.stopAll();
      await db.destroy();
      await tdb.drop();
      await deleteBusStreams(prefix);
    }
  }, 180_000);
});
