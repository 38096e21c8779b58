// The index store on PostgreSQL: built once and shared by every store (process), loaded while the
// dataset is unchanged, rebuilt after the dataset is replaced.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createDataSource, createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { importDataset } from '@precis/ingest';
import type { DataSource } from 'typeorm';
import { type IndexEvent, IndexStore, parseRetriever } from '../../src/index.js';

describe('IndexStore on PostgreSQL', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let dir: string;
  const files = async (docs: string[]) => {
    await writeFile(join(dir, 'q.jsonl'), '{"id":"q1","text":"storm at sea","relevant":["d0"]}\n');
    await writeFile(
      join(dir, 'd.jsonl'),
      docs.map((t, i) => JSON.stringify({ id: `d${i}`, text: t })).join('\n'),
    );
  };
  const store = (events: IndexEvent[]) => new IndexStore(db, { onIndex: (e) => events.push(e) });

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('retrievers_store');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    dir = await mkdtemp(join(tmpdir(), 'precis-store-'));
  });

  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('builds once for two stores at once, then loads, and rebuilds for new content', async () => {
    await files(['a storm at sea', 'calm harbour', 'storm warning']);
    const opts = {
      kind: 'retrieval' as const,
      path: join(dir, 'q.jsonl'),
      documentsPath: join(dir, 'd.jsonl'),
      name: 'mini',
    };
    await importDataset(db, opts);
    const bm25 = parseRetriever('bm25');
    const events: IndexEvent[] = [];
    const corpus = await IndexStore.corpus(db, 'mini');
    const [a, b] = await Promise.all([
      store(events).searcher(corpus, bm25),
      store(events).searcher(corpus, bm25),
    ]);
    expect((await a.search('storm', 3)).hits.map((h) => h.id)).toEqual(['d0', 'd2']);
    expect(await b.search('storm', 3)).toEqual(await a.search('storm', 3));
    const [rows] = await db.query('SELECT COUNT(*) AS n FROM retrieval_indexes');
    expect(Number(rows.n)).toBe(1);
    const later: IndexEvent[] = [];
    await store(later).searcher(corpus, bm25);
    expect(later.map((e) => [e.action, e.documents])).toEqual([['loaded', 3]]);

    await files(['calm harbour', 'storm warning']);
    await importDataset(db, { ...opts, replace: true });
    const replaced = await IndexStore.corpus(db, 'mini');
    const after: IndexEvent[] = [];
    const c = await store(after).searcher(replaced, bm25);
    expect(after.map((e) => [e.action, e.documents])).toEqual([['built', 2]]);
    expect((await c.search('storm', 3)).hits.map((h) => h.id)).toEqual(['d1']);
  });

  it('says when a dataset has no retrieval corpus', async () => {
    await writeFile(join(dir, 'plain.jsonl'), '{"id":"x","text":"Just text."}\n');
    await importDataset(db, { kind: 'jsonl', path: join(dir, 'plain.jsonl'), name: 'plain' });
    const corpus = await IndexStore.corpus(db, 'plain');
    await expect(store([]).searcher(corpus, parseRetriever('tfidf'))).rejects.toThrow(
      'dataset "plain" has no retrieval corpus: import a persphere or retrieval dataset (queries file plus --documents)',
    );
    await expect(IndexStore.corpus(db, 'nope')).rejects.toThrow('dataset "nope" not found');
  });
});
