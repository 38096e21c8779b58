import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import { assertBuilt, DATASETS, runCli } from './run-cli.js';

const QUERIES = join(DATASETS, 'persphere/theperspective.queries.jsonl');
const DOCUMENTS = join(DATASETS, 'persphere/theperspective.documents.jsonl');

describe('precis ingest persphere + retrieval eval (built binary, PostgreSQL)', () => {
  let dir: string;
  let tdb: ThrowawayDatabase;
  let fake: FakeLlmServer;
  const env = () => ({ DATABASE_URL: tdb.url, PRECIS_HOME: dir, EMBED_KEY: 'k' });

  beforeAll(async () => {
    assertBuilt();
    dir = await mkdtemp(join(tmpdir(), 'precis-retrieval-'));
    tdb = await createThrowawayDatabase('cli_retrieval');
    fake = await startFakeLlmServer({ latencyMs: 1, capacity: 16, rules: [] });
    const embed = { baseURL: fake.baseURL, model: 'hash-embed', kind: 'embedding', apiKeyEnv: 'EMBED_KEY' };
    await writeFile(join(dir, 'models.json'), JSON.stringify({ models: { embed: embed } }));
  });

  afterAll(async () => {
    await fake?.close();
    await tdb?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('imports Theperspective and counts queries, claims, perspectives and documents', async () => {
    const args = ['ingest', 'persphere', QUERIES, '--documents', DOCUMENTS, '--dataset', 'tp', '--json'];
    const first = await runCli(args, env());
    expect(first.code).toBe(0);
    const shown = await runCli(['datasets', 'show', 'tp', '--json'], env());
    expect(JSON.parse(shown.stdout).counts).toEqual({
      queries: 185,
      claims: 370,
      perspectives: 1103,
      documents: 4107,
    });
    const again = await runCli(args, env());
    expect(JSON.parse(again.stdout).status).toBe('unchanged');
  });

  it('refuses an evidence id that is no document, naming file, line and field, and writes nothing', async () => {
    const bad = join(dir, 'bad-queries.jsonl');
    const q = {
      id: 'q',
      title: 'T?',
      t1: 'A',
      t2: 'B',
      response1: ['a'],
      response2: ['b'],
      favor_ids: [1],
      against_ids: [999999],
    };
    await writeFile(bad, `${JSON.stringify(q)}\n`);
    const r = await runCli(['ingest', 'persphere', bad, '--documents', DOCUMENTS, '--dataset', 'bad'], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${bad}: line 1, field against_ids[0]: evidence id 999999 is not a document of ${DOCUMENTS}. Fix: name a document id of the documents file`,
    );
    const ls = await runCli(['datasets', 'ls', '--json'], env());
    expect(JSON.parse(ls.stdout).map((d: { name: string }) => d.name)).toEqual(['tp']);
  });

  it('gives Recall@k and Cover@k of BM25 and TF-IDF, building each index once', async () => {
    const bm25 = await runCli(
      ['retrieval', 'eval', '--dataset', 'tp', '--retriever', 'bm25', '--k', '10,20,100', '--json'],
      env(),
    );
    expect(bm25.code).toBe(0);
    const out = JSON.parse(bm25.stdout);
    expect(out).toMatchObject({ dataset: 'tp', retriever: 'bm25', queries: 185, warnings: [] });
    const round = (m: Record<string, number>) =>
      Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v.toFixed(2)]));
    expect(round(out.recall)).toEqual({ '10': '73.59', '20': '82.25', '100': '90.36' });
    expect(round(out.cover)).toEqual({ '10': '73.59', '20': '82.25', '100': '90.36' });
    expect(bm25.stderr).toContain(
      'index bm25(k1=0.9,b=0.4,lower=1,stop=english,stem=porter): built over 4107 documents',
    );
    const again = await runCli(
      ['retrieval', 'eval', '--dataset', 'tp', '--retriever', 'bm25', '--k', '10'],
      env(),
    );
    expect(again.stderr).toContain(': loaded over 4107 documents');
    expect(again.stdout).toMatch(/\n10 +73.59 +73.59\n/);
    const tfidf = await runCli(
      ['retrieval', 'eval', '--dataset', 'tp', '--retriever', 'tfidf', '--k', '10', '--json'],
      env(),
    );
    expect(JSON.parse(tfidf.stdout).recall['10'].toFixed(2)).toBe('70.81');
    // Analyzer settings make another index, named by its key.
    const raw = await runCli(
      [
        'retrieval',
        'eval',
        '--dataset',
        'tp',
        '--retriever',
        'bm25',
        '--k',
        '10',
        '--stemmer',
        'none',
        '--k1',
        '1.2',
        '--json',
      ],
      env(),
    );
    expect(JSON.parse(raw.stdout).retrieverKey).toBe('bm25(k1=1.2,b=0.4,lower=1,stop=english,stem=none)');
  });

  it('names the choices for an unknown retriever', async () => {
    const r = await runCli(['retrieval', 'eval', '--dataset', 'tp', '--retriever', 'bm26'], env());
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'unknown retriever "bm26": choose one of bm25, tfidf, lsa, dense:<embedding model>, rrf:<a>+<b>[+<c>...]',
    );
  });

  it('ranks a generic corpus densely through the embeddings endpoint, warning on empty queries and capped k', async () => {
    const docs = join(dir, 'docs.jsonl');
    const queries = join(dir, 'queries.jsonl');
    await writeFile(
      docs,
      ['lighthouse keeper storm', 'harbour boats fishing', 'storm at sea']
        .map((t, i) => JSON.stringify({ id: `d${i}`, text: t }))
        .join('\n'),
    );
    await writeFile(
      queries,
      `${JSON.stringify({ id: 'q1', text: 'storm lighthouse', relevant: ['d0'] })}\n${JSON.stringify({ id: 'q2', text: 'the of and', relevant: ['d1'] })}\n`,
    );
    expect(
      (await runCli(['ingest', 'retrieval', queries, '--documents', docs, '--dataset', 'mini'], env())).code,
    ).toBe(0);
    const bm25 = await runCli(
      ['retrieval', 'eval', '--dataset', 'mini', '--retriever', 'bm25', '--k', '1,5', '--json'],
      env(),
    );
    expect(JSON.parse(bm25.stdout)).toEqual({
      dataset: 'mini',
      retriever: 'bm25',
      retrieverKey: 'bm25(k1=0.9,b=0.4,lower=1,stop=english,stem=porter)',
      queries: 2,
      recall: { '1': 50, '5': 50 },
      cover: null,
      warnings: [
        '2 queries: k = 5 is more than the 3 documents of the corpus: capped to 3',
        '1 query: the query has no terms after analysis: nothing is ranked',
      ],
    });
    const dense = await runCli(
      [
        'retrieval',
        'eval',
        '--dataset',
        'mini',
        '--retriever',
        'dense:embed',
        '--k',
        '1',
        '--models',
        join(dir, 'models.json'),
        '--json',
      ],
      env(),
    );
    expect(dense.code).toBe(0);
    expect(JSON.parse(dense.stdout)).toMatchObject({
      retrieverKey: 'dense(model=embed,id=hash-embed)',
      recall: { '1': 50 },
    });
    // One call for the corpus, one per query.
    expect(fake.stats().byPath['/v1/embeddings']).toBe(3);
  });
});
