// A system-wide step (a strategy's `await`): one task over every document of a system, planned
// once each document finished the step it waits for or failed, its result handed to every unit.
// Defined in the test: per document a word count, then the system's mean count, then summaries.

import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import {
  type BenchmarkFamily,
  ConfigurationError,
  createRun,
  createRunContext,
  executeRun,
  FamilyRegistry,
  SYSTEM_SCOPE,
  summarizeTaskId,
  systemTaskId,
  validateSpec,
} from '@precis/engine';
import { GENERIC_DATASET_KINDS } from '@precis/families';
import { prepareImport } from '@precis/ingest';
import type { DataSource } from 'typeorm';
import { z } from 'zod';

const notes = resolve(import.meta.dirname, '../../examples/data/field-notes.jsonl');
const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
type Params = { failOn?: string; failMean?: boolean };

const lengthsFamily: BenchmarkFamily = {
  name: 'lengths',
  strategies: [
    {
      name: 'mean-length',
      params: { failOn: z.string().optional(), failMean: z.boolean().optional() },
      async plan(u) {
        const task = (doc: string, step: string, kind: string) => ({
          id:
            doc === SYSTEM_SCOPE
              ? systemTaskId(u.runId, u.system.name, step)
              : summarizeTaskId(u.runId, u.system.name, doc, step),
          runId: u.runId,
          stage: 'summarize' as const,
          kind,
          payload: { type: kind, system: u.system.name, documentId: doc },
        });
        if (!u.results.has('count'))
          return { kind: 'steps', tasks: [task(u.documentId, 'count', 'count-words')] };
        const mean = u.shared.get('mean');
        if (mean === undefined)
          return { kind: 'await', after: 'count', task: task(SYSTEM_SCOPE, 'mean', 'mean-words') };
        return { kind: 'summary', text: `${u.results.get('count')} of mean ${mean}`, finalStep: 'count' };
      },
    },
  ],
  taskKinds: [
    {
      kind: 'count-words',
      stage: 'summarize',
      async handle(ctx, ref, payload, spec) {
        const [doc]: { external_id: string; text: string }[] = await ctx.db.query(
          'SELECT external_id, text FROM documents WHERE id = $1',
          [payload.documentId],
        );
        const params = spec.systems.find((s) => s.name === payload.system)!.params as Params;
        if (params.failOn === doc!.external_id) throw new ConfigurationError(`task ${ref.id}: told to fail`);
        return {
          result: { text: String(words(doc!.text)), generations: 1, cut: false, producer: 'engine:test' },
        };
      },
    },
    {
      kind: 'mean-words',
      stage: 'summarize',
      async handle(ctx, ref, payload, spec) {
        const params = spec.systems.find((s) => s.name === payload.system)!.params as Params;
        if (params.failMean) throw new ConfigurationError('the mean could not be taken');
        const rows: { n: string }[] = await ctx.db.query(
          `SELECT result->>'text' AS n FROM tasks WHERE run_id = $1 AND kind = 'count-words' AND status = 'done'
              AND payload->>'system' = $2`,
          [ref.runId, payload.system],
        );
        const mean = rows.reduce((a, r) => a + Number(r.n), 0) / rows.length;
        return { result: { text: mean.toFixed(2), generations: 1, cut: false, producer: 'engine:test' } };
      },
    },
  ],
  metrics: [
    {
      name: 'none',
      schema: z.object({ name: z.literal('none') }).strict(),
      open: async () => ({ tasksFor: () => [] }),
    },
  ],
};

const families = new FamilyRegistry([lengthsFamily], { datasetKinds: GENERIC_DATASET_KINDS });
const spec = (params: Params) =>
  validateSpec(families, {
    name: 'lengths',
    datasets: [{ name: 'notes', kind: 'jsonl', path: notes }],
    systems: [{ name: 'm', strategy: 'mean-length', engine: 'lead', params }],
    metrics: [{ name: 'none' }],
  });

describe('system-wide steps', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('engine_system_steps');
    db = await createDataSource({ url: tdb.url });
  });

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  async function run(params: Params) {
    const bus = createInProcessBus();
    try {
      const ctx = createRunContext({ prepareImport, families, db, bus });
      const { run } = await createRun(
        ctx,
        { spec: spec(params), file: 'lengths.yaml', text: '' },
        { fresh: true },
      );
      const outcome = await executeRun(ctx, bus, run.id, { concurrency: 2 });
      if (outcome.interrupted) throw new Error('interrupted');
      const summaries: { text: string }[] = await db.query(
        `SELECT s.text FROM summaries s JOIN documents d ON d.id = s.document_id WHERE s.run_id = $1 ORDER BY d.ordinal`,
        [run.id],
      );
      const system: { unit: string; status: string }[] = await db.query(
        `SELECT unit, status FROM tasks WHERE run_id = $1 AND kind = 'mean-words'`,
        [run.id],
      );
      return { progress: outcome.progress, summaries: summaries.map((s) => s.text), system };
    } finally {
      await bus.close();
    }
  }

  // Words of the three field notes.
  const counts = [30, 32, 31];

  it('runs the system-wide step once, after every document, and hands its result to each', async () => {
    const r = await run({});
    expect(r.progress.status).toBe('completed');
    const mean = (93 / 3).toFixed(2);
    expect(r.summaries).toEqual(counts.map((c) => `${c} of mean ${mean}`));
    expect(r.system).toEqual([{ unit: `m:${SYSTEM_SCOPE}`, status: 'done' }]);
  });

  it('goes on without a document that failed before it', async () => {
    const r = await run({ failOn: 'note-2' });
    expect(r.progress.status).toBe('completed-with-failures');
    expect(r.progress.summaries).toMatchObject({ expected: 3, done: 2, failed: 1 });
    // The mean of the other two notes' 30 and 31 words.
    expect(r.summaries).toEqual(['30 of mean 30.50', '31 of mean 30.50']);
  });

  it('fails every document of the system when the system-wide step fails', async () => {
    const r = await run({ failMean: true });
    expect(r.progress.status).toBe('failed');
    expect(r.progress.summaries).toMatchObject({ expected: 3, done: 0, failed: 3 });
    expect(r.progress.error).toContain('the mean could not be taken');
    expect(r.system).toEqual([{ unit: `m:${SYSTEM_SCOPE}`, status: 'failed' }]);
  });
});
