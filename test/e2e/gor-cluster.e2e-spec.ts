// GoR across the services as separate processes (gateway, retrieval, summarization training in a
// worker thread, a verifier, scoring) on NATS + PostgreSQL, against a fake server in this process:
// the same rankings, ROUGE, training losses and win rates as the embedded runtime.
// Needs the build: `npx turbo run build` (services and the training worker run from dist).
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RunEntity } from '@precis/db';
import type { GorRow } from '@precis/family-gor';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { gorRules } from '../engine/gor-fake.js';
import { builtInFamilies, loadFullRunReport, reportSections, validateSpec } from '../support/precis.js';
import { embeddedOutcome } from './embedded-runs.js';
import { clusterOutcome, tempDir } from './runs-support.js';

const DATASETS = realpathSync(resolve(import.meta.dirname, '../../../shared/datasets'));

const registry = (baseURL: string) => ({
  models: {
    'gor-writer': { baseURL, model: 'gor-writer', contextWindow: 16000, maxConcurrency: 8 },
    judge: { baseURL, model: 'judge', contextWindow: 16000, maxConcurrency: 8 },
  },
});

const small = { queries: 5, epochs: 15 };
const spec = () =>
  validateSpec(builtInFamilies, {
    name: 'gor-cluster',
    seed: 11,
    datasets: [{ name: 'qm', kind: 'qmsum', path: resolve(DATASETS, 'qmsum/test.jsonl'), limit: 2 }],
    systems: [
      { name: 'gor', strategy: 'gor', model: 'gor-writer', params: small },
      { name: 'bm25', strategy: 'rag', model: 'gor-writer', params: { retriever: 'bm25' } },
      { name: 'thought', strategy: 'thought-retriever', model: 'gor-writer', params: small },
    ],
    metrics: [{ name: 'rouge' }, { name: 'gor-pairwise', judge: { model: 'judge' }, baseline: 'bm25' }],
  });

// Every unit's ranked nodes and the report rows, without the training's wall-clock figures.
async function outcome(db: DataSource, runId: string) {
  // The nodes each unit's summary read (a rank step's or the system's trained model's top K).
  const ranked: { system: string; meeting: string; nodes: number[] }[] = await db.query(
    `SELECT t.payload->>'system' AS system, d.external_id AS meeting, t.payload->'ranked'->'nodes' AS nodes
       FROM tasks t JOIN documents d ON d.id::text = t.payload->>'documentId'
      WHERE t.run_id = $1 AND t.kind = 'gor-summary' ORDER BY 1, 2`,
    [runId],
  );
  const run = await db.getRepository(RunEntity).findOneByOrFail({ id: runId });
  const rows = reportSections(await loadFullRunReport(builtInFamilies, db, run)).flatMap(
    (s) => s.rows,
  ) as unknown as GorRow[];
  return {
    ranked: ranked.map((r) => [r.system, r.meeting, r.nodes]),
    rows: rows.map((r) => ({
      ...r,
      training: r.training ? { ...r.training, seconds: 0, inferenceMs: 0 } : null,
    })),
  };
}

const embedded = (fake: FakeLlmServer) =>
  embeddedOutcome({
    name: 'gor',
    registry: registry(fake.baseURL),
    spec: spec(),
    concurrency: 4,
    outcome,
  });

describe('GoR across the services', () => {
  const tmp = tempDir('precis-gor-cluster-');
  let fake: FakeLlmServer;

  beforeAll(async () => {
    fake = await startFakeLlmServer({ latencyMs: 5, capacity: 64, rules: gorRules });
  });

  afterAll(async () => {
    await fake?.close();
    tmp.remove();
  });

  it('gives the embedded rankings, ROUGE, losses and win rates', async () => {
    const expected = await embedded(fake);
    expect(expected.ranked).toHaveLength(6);
    expect(expected.rows.find((r) => r.system === 'gor')!.training!.epochs).toBe(15);
    const got = await clusterOutcome({
      name: 'gor',
      registry: registry(fake.baseURL),
      dir: tmp.dir,
      spec: spec(),
      cluster: { verifiers: 1, retrievals: 1, concurrency: 2, env: { gateway: { INGEST_ROOT: DATASETS } } },
      outcome,
      check: async (db) => {
        const [models] = await db.query('SELECT COUNT(*) AS n FROM gor_models');
        expect(Number(models.n)).toBe(1);
      },
    });
    expect(got).toEqual(expected);
  }, 240_000);
});
