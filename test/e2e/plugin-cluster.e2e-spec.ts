// A summarizer plugin in cluster mode: the example plugin as its own process, called by the
// summarization service for every step of a run submitted to the gateway, with the same summaries
// as the embedded runtime and every call in the ledger.
// Needs the build: `npx turbo run build` (services run from dist).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase } from '@precis/db';
import type { DataSource } from 'typeorm';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import { freePort } from '../../packages/service/test/support/service-process.js';
import { builtInFamilies, validateSpec } from '../support/precis.js';
import {
  deleteBusStreams,
  embeddedOutcome,
  repoRoot,
  startCluster,
  tempDir,
  writeJson,
} from './runs-support.js';

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
  let plugin: ChildProcess;
  let address: string;

  beforeAll(async () => {
    const port = await freePort();
    address = `127.0.0.1:${port}`;
    plugin = spawn(
      process.execPath,
      [resolve(repoRoot, 'examples/plugins/lead-summarizer/server.mjs'), '--port', String(port)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await new Promise<void>((ok) =>
      plugin.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && ok()),
    );
  });

  afterAll(() => {
    plugin?.kill('SIGTERM');
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
    const prefix = `e2e_plugin_${randomBytes(4).toString('hex')}`;
    const tdb = await createThrowawayDatabase('e2e_plugin_cluster');
    const db = await createDataSource({ url: tdb.url, runMigrations: true });
    const modelsFile = writeJson(join(tmp.dir, `models-${prefix}.json`), REGISTRY);
    const c = await startCluster({ databaseUrl: tdb.url, prefix, modelsFile, verifiers: 1, concurrency: 4 });
    const runs = new RemoteRuns(c.grpcAddress, c.access);
    try {
      const { run } = await runs.createRun(spec(address));
      const { run: final } = await followRemoteRun(runs, run.id, { pollMs: 250 });
      expect(remoteRunStatus(final)).toBe('completed');
      expect(await outcome(db, run.id)).toEqual(expected);
      expect(expected.summaries[0]!.producer).toBe(`plugin:${address}`);
    } finally {
      runs.close();
      await c.stopAll();
      await db.destroy();
      await tdb.drop();
      await deleteBusStreams(prefix);
    }
  }, 180_000);
});
