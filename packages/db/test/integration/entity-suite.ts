// The same behaviour checks, run against PostgreSQL and against PGlite by the *.int-spec.ts files.
import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import {
  ChunkEntity,
  countRows,
  DatasetEntity,
  DocumentEntity,
  findSchemaDrift,
  insertInChunks,
  inTransaction,
  LlmCallEntity,
  MIGRATIONS,
  MIGRATIONS_TABLE,
  RunEntity,
  TaskEntity,
  toNumber,
  upsertInChunks,
} from '../../src/index.js';

async function newDataset(ds: DataSource, name = `ds-${randomUUID()}`): Promise<DatasetEntity> {
  return ds.getRepository(DatasetEntity).save({
    name,
    kind: 'kgds',
    sourcePath: '/data/kgds.json',
    sourceSha256: 'a'.repeat(64),
  });
}

async function newDocument(ds: DataSource, datasetId: string, externalId: string): Promise<DocumentEntity> {
  return ds.getRepository(DocumentEntity).save({
    datasetId,
    externalId,
    ordinal: 0,
    title: null,
    text: 'Some text.',
    data: { facts: [{ id: 1, text: 'a fact', tags: ['x', 'y'] }], nested: { deep: { ok: true } } },
  });
}

export function entitySuite(getDs: () => DataSource): void {
  it('applied every migration and the entities need no further SQL', async () => {
    const ds = getDs();
    const applied: Array<{ name: string }> = await ds.query(
      `SELECT name FROM "${MIGRATIONS_TABLE}" ORDER BY id`,
    );
    expect(applied.map((r) => r.name)).toEqual(MIGRATIONS.map((m) => new m().name ?? m.name));
    expect(await ds.showMigrations()).toBe(false);
    expect(await findSchemaDrift(ds)).toEqual([]);
  });

  it('reports drift when the schema no longer matches the entities', async () => {
    const ds = getDs();
    await ds.query('ALTER TABLE "runs" DROP COLUMN "error"');
    try {
      const drift = await findSchemaDrift(ds);
      expect(drift.join('\n')).toMatch(/ALTER TABLE "runs" ADD "error" text/);
    } finally {
      await ds.query('ALTER TABLE "runs" ADD "error" text');
    }
    expect(await findSchemaDrift(ds)).toEqual([]);
  });

  it('stores datasets with defaults and upserts them on the name', async () => {
    const ds = getDs();
    const name = `upsert-${randomUUID()}`;
    const first = await newDataset(ds, name);
    expect(first.id).toMatch(/^[0-9a-f-]{36}$/);
    const loaded = await ds.getRepository(DatasetEntity).findOneByOrFail({ id: first.id });
    expect(loaded.counts).toEqual({});
    expect(loaded.createdAt).toBeInstanceOf(Date);
    const before = await countRows(ds, DatasetEntity);
    await upsertInChunks(
      ds,
      DatasetEntity,
      [{ name, kind: 'kgds', sourcePath: '/x', sourceSha256: 'b'.repeat(64), counts: { documents: 3 } }],
      { conflictPaths: ['name'] },
    );
    expect(await countRows(ds, DatasetEntity)).toBe(before);
    const after = await ds.getRepository(DatasetEntity).findOneByOrFail({ name });
    expect(after.id).toBe(first.id);
    expect(after.sourceSha256).toBe('b'.repeat(64));
    expect(after.counts).toEqual({ documents: 3 });
  });

  it('round-trips jsonb documents and enforces (dataset, external id) uniqueness', async () => {
    const ds = getDs();
    const dataset = await newDataset(ds);
    const doc = await newDocument(ds, dataset.id, 'doc-1');
    const loaded = await ds.getRepository(DocumentEntity).findOneByOrFail({ id: doc.id });
    expect(loaded.data).toEqual({
      facts: [{ id: 1, text: 'a fact', tags: ['x', 'y'] }],
      nested: { deep: { ok: true } },
    });
    expect(loaded.metadata).toEqual({});
    expect(loaded.title).toBeNull();
    await expect(newDocument(ds, dataset.id, 'doc-1')).rejects.toThrow(/uq_documents_dataset_external/);
    // The failed insert left the session usable.
    expect(await countRows(ds, 'documents')).toBeGreaterThanOrEqual(1);
  });

  it('inserts chunks in multi-row batches and cascades deletes dataset → documents → chunks', async () => {
    const ds = getDs();
    const dataset = await newDataset(ds);
    const doc = await newDocument(ds, dataset.id, 'doc-c');
    const rows = Array.from({ length: 1200 }, (_, i) => ({
      documentId: doc.id,
      scheme: 'source',
      kind: 'paragraph',
      ordinal: i,
      sourceIndex: i,
      text: `paragraph ${i}`,
      tokenCount: 2,
      metadata: { i },
    }));
    const chunksBefore = await countRows(ds, ChunkEntity);
    await inTransaction(ds, (m) => insertInChunks(m, ChunkEntity, rows, { chunkSize: 500 }));
    expect(await countRows(ds, ChunkEntity)).toBe(chunksBefore + 1200);
    const last = await ds.getRepository(ChunkEntity).findOneByOrFail({ documentId: doc.id, ordinal: 1199 });
    expect(last.metadata).toEqual({ i: 1199 });

    await ds.getRepository(DatasetEntity).delete({ id: dataset.id });
    expect(await ds.getRepository(DocumentEntity).countBy({ datasetId: dataset.id })).toBe(0);
    expect(await ds.getRepository(ChunkEntity).countBy({ documentId: doc.id })).toBe(0);
    expect(await countRows(ds, ChunkEntity)).toBe(chunksBefore);
  });

  it('upserts tasks on their natural id, reports affected rows, and cascades run → tasks', async () => {
    const ds = getDs();
    const run = await ds.getRepository(RunEntity).save({
      name: 'suite run',
      spec: { datasets: ['a'], models: [{ name: 'm', temperature: 0 }] },
      specSha256: 'c'.repeat(64),
      costLimitUsd: '1.2500000000',
    });
    expect(run.status).toBe('pending');
    const tasks = ['t1', 't2', 't3'].map((unit) => ({
      id: `${run.id}:summarize:${unit}`,
      runId: run.id,
      stage: 'summarize',
      kind: 'summarize-doc',
      payload: { unit },
    }));
    await upsertInChunks(ds, TaskEntity, tasks, { conflictPaths: ['id'] });
    await upsertInChunks(ds, TaskEntity, tasks, { conflictPaths: ['id'] });
    expect(await ds.getRepository(TaskEntity).countBy({ runId: run.id })).toBe(3);

    // A conditional update (claim) must report how many rows it changed, on both engines.
    const claim = await ds
      .getRepository(TaskEntity)
      .update({ id: tasks[0]!.id, status: 'pending' }, { status: 'running', attempts: () => 'attempts + 1' });
    expect(claim.affected).toBe(1);
    const again = await ds
      .getRepository(TaskEntity)
      .update({ id: tasks[0]!.id, status: 'pending' }, { status: 'running' });
    expect(again.affected).toBe(0);
    const claimed = await ds.getRepository(TaskEntity).findOneByOrFail({ id: tasks[0]!.id });
    expect(claimed.attempts).toBe(1);
    expect(claimed.result).toBeNull();

    const reloaded = await ds.getRepository(RunEntity).findOneByOrFail({ id: run.id });
    expect(reloaded.costLimitUsd).toBe('1.2500000000');
    expect(reloaded.spec).toEqual(run.spec);

    const deleted = await ds.getRepository(RunEntity).delete({ id: run.id });
    expect(deleted.affected).toBe(1);
    expect(await ds.getRepository(TaskEntity).countBy({ runId: run.id })).toBe(0);
  });

  it('sums 1000 tiny llm call costs exactly as a numeric string', async () => {
    const ds = getDs();
    const runId = randomUUID();
    const calls = Array.from({ length: 1000 }, (_, i) => ({
      runId,
      taskId: `task-${i}`,
      model: 'small',
      modelId: 'provider/small-1',
      kind: 'chat',
      cacheKey: `key-${i % 10}`,
      request: { messages: [{ role: 'user', content: `q${i}` }] },
      response: { choices: [{ message: { content: `a${i}` } }] },
      tokensIn: 10,
      tokensOut: 5,
      costUsd: '0.0000015',
    }));
    await insertInChunks(ds, LlmCallEntity, calls);
    const [agg]: Array<{ total: string; n: string | number; tokens: string | number }> = await ds.query(
      'SELECT sum(cost_usd)::text AS total, count(*) AS n, sum(tokens_in) AS tokens FROM llm_calls WHERE run_id = $1',
      [runId],
    );
    expect(agg!.total).toBe('0.0015000000');
    expect(toNumber(agg!.n)).toBe(1000);
    expect(toNumber(agg!.tokens)).toBe(10_000);
    const one = await ds.getRepository(LlmCallEntity).findOneByOrFail({ runId, taskId: 'task-7' });
    expect(one.costUsd).toBe('0.0000015000');
    expect(one.cacheHit).toBe(false);
    expect(one.attempts).toBe(1);
    expect(one.response).toEqual({ choices: [{ message: { content: 'a7' } }] });
    // The ledger outlives runs: llm_calls.run_id has no foreign key.
    expect(await ds.getRepository(LlmCallEntity).countBy({ cacheKey: 'key-3', runId })).toBe(100);
  });

  it('rolls a transaction back entirely when its function throws', async () => {
    const ds = getDs();
    const before = await countRows(ds, DatasetEntity);
    await expect(
      inTransaction(ds, async (m) => {
        await m
          .getRepository(DatasetEntity)
          .save({ name: `tx-${randomUUID()}`, kind: 'text', sourcePath: '/p', sourceSha256: 'd' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await countRows(ds, DatasetEntity)).toBe(before);
    await expect(countRows(ds, 'datasets; DROP TABLE runs')).rejects.toThrow(/not a table name/);
  });
}
