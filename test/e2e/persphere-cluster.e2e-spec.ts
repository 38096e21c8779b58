// PerSphere across the services as separate processes (gateway, two retrieval processes sharing
// the retrieve queue, summarization, a verifier, scoring) on NATS + PostgreSQL, against a fake
// server in this process: the same top-k and the same report as the embedded runtime.
// Needs the build: `npx turbo run build` (services run from dist).
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RunEntity } from '@precis/db';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { persphereRules } from '../engine/persphere-fake.js';
import { builtInFamilies, loadFullRunReport, reportSections, validateSpec } from '../support/precis.js';
import { embeddedOutcome } from './embedded-runs.js';
import { clusterOutcome, finishedTasks, tempDir } from './runs-support.js';

const DATASETS = realpathSync(resolve(import.meta.dirname, '../../../shared/datasets'));
const QUERIES = resolve(DATASETS, 'persphere/theperspective.queries.jsonl');
const DOCUMENTS = resolve(DATASETS, 'persphere/theperspective.documents.jsonl');

const registry = (baseURL: string) => ({
  models: {
    sphere: { baseURL, model: 'sphere', contextWindow: 16000, maxConcurrency: 8 },
    judge: { baseURL, model: 'judge', contextWindow: 16000, maxConcurrency: 16 },
  },
});

const spec = () =>
  validateSpec(builtInFamilies, {
    name: 'persphere-cluster',
    seed: 5,
    datasets: [{ name: 'tp', kind: 'persphere', path: QUERIES, corpus: DOCUMENTS, limit: 12 }],
    systems: [
      { name: 'bm25', strategy: 'vanilla', model: 'sphere', params: { retriever: 'bm25', k: 10 } },
      {
        name: 'rrf-hier',
        strategy: 'hiersphere',
        model: 'sphere',
        params: { retriever: 'rrf:bm25+tfidf', k: 8, agents: 2 },
      },
      {
        name: 'lsa-lead',
        strategy: 'vanilla',
        engine: 'lead',
        params: { retriever: 'lsa', k: 10, dimensions: 32 },
      },
    ],
    metrics: [{ name: 'persphere', judge: { model: 'judge' } }],
  });

// Every unit's top-k (by system and query external id) and the report's rows.
async function outcome(db: DataSource, runId: string) {
  const hits: { system: string; query: string; result: { hits: { id: string; score: number }[] } }[] =
    await db.query(
      `SELECT t.payload->>'system' AS system, d.external_id AS query, t.result FROM tasks t
       JOIN documents d ON d.id::text = t.payload->>'documentId'
      WHERE t.run_id = $1 AND t.stage = 'retrieve' ORDER BY 1, 2`,
      [runId],
    );
  const run = await db.getRepository(RunEntity).findOneByOrFail({ id: runId });
  const report = await loadFullRunReport(builtInFamilies, db, run);
  return {
    topK: hits.map((h) => [h.system, h.query, h.result.hits.map((x) => x.id)]),
    rows: reportSections(report).flatMap((s) => s.rows),
  };
}

const embedded = (fake: FakeLlmServer) =>
  embeddedOutcome({
    name: 'persphere',
    registry: registry(fake.baseURL),
    spec: spec(),
    concurrency: 8,
    outcome,
  });

describe('PerSphere across the services', () => {
  const tmp = tempDir('precis-persphere-cluster-');
  let fake: FakeLlmServer;

  beforeAll(async () => {
    fake = await startFakeLlmServer({ latencyMs: 5, capacity: 256, rules: persphereRules });
  });

  afterAll(async () => {
    await fake?.close();
    tmp.remove();
  });

  it('gives the embedded top-k and report with two retrieval processes sharing the queue', async () => {
    const expected = await embedded(fake);
    expect(expected.topK).toHaveLength(36);
    const got = await clusterOutcome({
      name: 'persphere',
      registry: registry(fake.baseURL),
      dir: tmp.dir,
      spec: spec(),
      cluster: {
        verifiers: 1,
        retrievals: 2,
        concurrency: 2,
        // An index build holds its process's event loop (no heartbeats) for seconds: with the
        // cluster's 3 s ack wait the other process could finish every task this one holds.
        env: {
          gateway: { INGEST_ROOT: DATASETS },
          'retrieval-1': { TASK_ACK_WAIT_MS: '60000' },
          'retrieval-2': { TASK_ACK_WAIT_MS: '60000' },
        },
      },
      outcome,
      check: async (db, c) => {
        // Both retrieval processes finished retrieve tasks; each task is stored once.
        const perProcess = await Promise.all(
          ['retrieval-1', 'retrieval-2'].map((id) => finishedTasks(c.procs.get(id)!, 'retrieve')),
        );
        expect(perProcess.reduce((a, b) => a + b, 0)).toBe(36);
        expect(Math.min(...perProcess)).toBeGreaterThan(0);
        const [done] = await db.query(
          `SELECT COUNT(*) AS n FROM tasks WHERE stage = 'retrieve' AND status = 'done'`,
        );
        expect(Number(done.n)).toBe(36);
        // Each index was built once and stored for every process.
        const [built] = await db.query('SELECT COUNT(*) AS n FROM retrieval_indexes');
        expect(Number(built.n)).toBe(3);
      },
    });
    expect(got).toEqual(expected);
  }, 240_000);
});
