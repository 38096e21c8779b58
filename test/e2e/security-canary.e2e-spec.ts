// Canary keys through a full cluster run: a model key the fake LLM accepts, a wrong model key the
// fake echoes back in its 401 answer (as real providers do), and the gateway's API key. After the
// run, no log line of any service and no row of any table holds any of them.
// Needs the build: `npx turbo run build` (services and packages/testing run from dist).

import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { type FakeLlmProcess, spawnFakeLlmProcess } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { RemoteIngestion } from '../../apps/cli/src/runtime/remote-ingestion.js';
import { followRemoteRun, RemoteRuns, remoteRunStatus } from '../../apps/cli/src/runtime/remote-runs.js';
import { builtInFamilies, validateSpec } from '../support/precis.js';
import {
  type Cluster,
  deleteBusStreams,
  judgeRules,
  repoRoot,
  startCluster,
  tempDir,
  writeJson,
} from './runs-support.js';

// Key-shaped canaries with a random core each, so a hit can only come from this run.
const canary = (tag: string) => `sk-canary${tag}-${randomBytes(12).toString('hex')}`;

function canarySpec() {
  return validateSpec(builtInFamilies, {
    name: 'canary-run',
    datasets: [
      { name: 'lighthouse', kind: 'text', path: join(repoRoot, 'examples/data/the-lighthouse-keeper.md') },
    ],
    systems: [
      { name: 'hier-fake', strategy: 'hierarchical', model: 'fake-model', params: { chunkSize: 200 } },
      // Its key is wrong: the fake answers 401 quoting the Authorization header it got.
      {
        name: 'hier-wrong-key',
        strategy: 'hierarchical',
        model: 'wrong-key-model',
        params: { chunkSize: 200 },
      },
    ],
    metrics: [{ name: 'booookscore', judge: { model: 'fake-model' }, mode: 'batched', batchSize: 2 }],
    seed: 3,
  });
}

// Every row of every table as text, for a substring search.
async function tablesHolding(db: DataSource, needle: string): Promise<string[]> {
  const tables: { name: string }[] = await db.query(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  const hits: string[] = [];
  for (const { name } of tables) {
    const [row] = await db.query(`SELECT COUNT(*) AS n FROM "${name}" t WHERE t::text LIKE $1`, [
      `%${needle}%`,
    ]);
    if (Number(row.n) > 0) hits.push(`${name} (${row.n} rows)`);
  }
  return hits;
}

describe('canary keys never reach a log line or a table', () => {
  const prefix = `e2e_canary_${randomBytes(4).toString('hex')}`;
  const tmp = tempDir('precis-canary-');
  const keys = { model: canary('model'), wrong: canary('wrong') };
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let fake: FakeLlmProcess;
  let cluster: Cluster;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('e2e_canary');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    const rules = writeJson(join(tmp.dir, 'rules.json'), judgeRules());
    fake = await spawnFakeLlmProcess(['--latency', '5', '--rules', rules, '--api-key', keys.model]);
    const model = { baseURL: fake.baseURL, model: 'fake-model', contextWindow: 4096, maxConcurrency: 8 };
    const modelsFile = writeJson(join(tmp.dir, 'models.json'), {
      models: {
        'fake-model': { ...model, apiKeyEnv: 'CANARY_MODEL_KEY' },
        // Another model id, so no cached answer of fake-model can stand in for its calls.
        'wrong-key-model': { ...model, model: 'other-model', apiKeyEnv: 'CANARY_WRONG_KEY' },
      },
    });
    const secrets = { CANARY_MODEL_KEY: keys.model, CANARY_WRONG_KEY: keys.wrong, LOG_LEVEL: 'debug' };
    const env = Object.fromEntries(
      ['gateway', 'summarization', 'scoring', 'verifier-1', 'ingestion', 'retrieval'].map((id) => [
        id,
        secrets,
      ]),
    );
    cluster = await startCluster({ databaseUrl: tdb.url, prefix, modelsFile, verifiers: 1, env });
    await Promise.all([cluster.start('ingestion', 'ingestion'), cluster.start('retrieval', 'retrieval')]);
  }, 150_000);

  afterAll(async () => {
    await cluster?.stopAll();
    await fake?.close();
    await db?.destroy();
    await tdb?.drop();
    await deleteBusStreams(prefix).catch(() => {});
    tmp.remove();
  }, 60_000);

  it('runs, fails the wrong-key system with a redacted 401, and leaks no key', async () => {
    const ingestion = new RemoteIngestion(cluster.grpcAddress, cluster.access);
    const runs = new RemoteRuns(cluster.grpcAddress, cluster.access);
    try {
      const imported = await ingestion.importDataset({
        kind: 'text',
        path: join(repoRoot, 'examples/data/the-lighthouse-keeper.md'),
        name: 'lighthouse-import',
        replace: false,
      });
      expect(imported.status).toBe('imported');
      // The gateway's preflight refuses the wrong key first (its 401 masked, nothing created);
      // without the preflight request, the run's own calls take the same path.
      const refused = await runs.createRun(canarySpec()).catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: status.FAILED_PRECONDITION });
      expect((refused as Error).message).toMatch(
        /^model "wrong-key-model" at \S+ refused the request with HTTP 401: .*Bearer \[REDACTED\]/,
      );
      const { run } = await runs.createRun(canarySpec(), { preflight: false });
      const { run: final } = await followRemoteRun(runs, run.id, { pollMs: 250 });
      expect(remoteRunStatus(final)).toBe('completed-with-failures');
      expect(final.error).toMatch(/^1 of 2 summaries failed/);
    } finally {
      ingestion.close();
      runs.close();
    }
    // The key-echoing path really ran: the wrong key's 401 is stored, with the key masked.
    const [failed] = await db.query(
      `SELECT error FROM tasks WHERE status = 'failed' AND error LIKE '%401%' LIMIT 1`,
    );
    expect(failed?.error).toContain('Bearer [REDACTED]');
    expect((await fake.stats()).completedChats).toBeGreaterThan(0);

    // The scan finds what is there: the run's name is in its tables, the run id in the logs.
    expect(await tablesHolding(db, 'canary-run')).toEqual(['runs (1 rows)']);
    const gatewayLog = cluster.gateway.logs.map((l) => JSON.stringify(l)).join('\n');
    expect(gatewayLog).toContain((await db.query('SELECT id FROM runs'))[0].id);
    for (const key of Object.values(keys)) {
      const core = key.slice(-24);
      expect(await tablesHolding(db, core)).toEqual([]);
      for (const [id, proc] of cluster.procs) {
        const text = [...proc.logs.map((l) => JSON.stringify(l)), ...proc.rawStdout, proc.stderr()].join(
          '\n',
        );
        expect({ id, lines: proc.logs.length, leaked: text.includes(core) }).toEqual({
          id,
          lines: proc.logs.length,
          leaked: false,
        });
      }
    }
  }, 180_000);
});
