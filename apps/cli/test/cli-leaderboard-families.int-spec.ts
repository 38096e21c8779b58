import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bspScore } from '@precis/family-kgds';
import { recallAtK } from '@precis/metrics';
import { Bm25Index, TfidfIndex } from '@precis/retrievers';
import { assertBuilt, DATASETS, runCli } from './run-cli.js';

const LIMIT = 6;
const KGDS = resolve(DATASETS, 'kgds/KGDS.json');
const QUERIES = resolve(DATASETS, 'persphere/theperspective.queries.jsonl');
const DOCUMENTS = resolve(DATASETS, 'persphere/theperspective.documents.jsonl');

const jsonl = <T>(file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

// Recall@10 (percent) of a retriever's top 10 over the first queries, ranked here.
function recallAt10(index: { search(q: string, k: number): { hits: { id: string }[] } }): number {
  const queries = jsonl<{ title: string; favor_ids: number[]; against_ids: number[] }>(QUERIES);
  return mean(
    queries.slice(0, LIMIT).map((q) => {
      const top = index.search(q.title, 10).hits.map((h) => h.id);
      return 100 * recallAtK([...q.favor_ids, ...q.against_ids].map(String), top, 10);
    }),
  );
}

// BSP F1 (percent) of the first `paragraphs` paragraphs of each of the first samples.
function leadBspF1(paragraphs: number): number {
  type Sample = { SBK: { paragraph_index: number }[]; BSP: { paragraph_index: number }[] };
  const samples = (JSON.parse(readFileSync(KGDS, 'utf8')) as Sample[]).slice(0, LIMIT);
  return mean(
    samples.map((s) => {
      const article = s.SBK.map((p) => p.paragraph_index);
      const gold = s.BSP.map((p) => p.paragraph_index);
      return 100 * bspScore({ predicted: article.slice(0, paragraphs), gold, article }).f1;
    }),
  );
}

// The line of the text table that names this system.
const lineOf = (text: string, system: string) =>
  text.split('\n').find((l) => new RegExp(`(^|\\s)${system}\\s`).test(l)) ?? '';

describe('precis leaderboard --runs over KGDS and PerSphere runs (built binary, embedded)', () => {
  let home: string;
  const env = () => ({ PRECIS_HOME: home });

  beforeAll(async () => {
    assertBuilt();
    home = await mkdtemp(join(tmpdir(), 'precis-cli-families-'));
  });

  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  async function run(spec: Record<string, unknown>): Promise<string> {
    const file = join(home, `${spec.name}.json`);
    await writeFile(file, JSON.stringify(spec));
    const r = await runCli(['run', file, '--json'], env());
    expect([spec.name, r.code]).toEqual([spec.name, 0]);
    return (JSON.parse(r.stdout) as { run: { id: string } }).run.id;
  }

  it('compares two PerSphere runs on Recall@10, asking which metric first', async () => {
    const persphere = (name: string, retriever: string) =>
      run({
        name,
        datasets: [{ name: 'tp', kind: 'persphere', path: QUERIES, corpus: DOCUMENTS, limit: LIMIT }],
        systems: [
          { name: `${retriever}-10`, strategy: 'vanilla', engine: 'lead', params: { retriever, k: 10 } },
          { name: 'golden', strategy: 'vanilla', engine: 'lead', params: { retriever: 'golden' } },
        ],
        metrics: [{ name: 'persphere', judge: { engine: 'lexical' } }],
      });
    const a = await persphere('sphere-bm25', 'bm25');
    const b = await persphere('sphere-tfidf', 'tfidf');
    const runs = `${a.slice(0, 8)},${b.slice(0, 8)}`;
    const ask = await runCli(['leaderboard', '--runs', runs], env());
    expect([ask.code, ask.stderr]).toEqual([
      1,
      'precis: error: the runs share several metrics: choose one with --metric (persphere:cover@10, persphere:cover@golden, persphere:overall, persphere:recall@10, persphere:recall@golden, persphere:rp@10, persphere:rp@golden)\n',
    ]);
    const lb = await runCli(['leaderboard', '--runs', runs, '--metric', 'persphere:recall@10'], env());
    expect(lb.code).toBe(0);
    expect(lb.stdout).toContain(`persphere:recall@10: 2 systems on ${LIMIT} shared documents`);
    const corpus = jsonl<{ id: number; content: string }>(DOCUMENTS).map((d) => ({
      id: String(d.id),
      text: d.content,
    }));
    expect(lineOf(lb.stdout, 'bm25-10')).toContain(recallAt10(Bm25Index.build(corpus)).toFixed(4));
    expect(lineOf(lb.stdout, 'tfidf-10')).toContain(recallAt10(TfidfIndex.build(corpus)).toFixed(4));
    // The golden systems of both runs: every query's own evidence, all of it.
    const golden = await runCli(
      ['leaderboard', '--runs', runs, '--metric', 'persphere:recall@golden'],
      env(),
    );
    expect(lineOf(golden.stdout, 'golden').length).toBeGreaterThan(0);
    for (const l of golden.stdout.split('\n').filter((x) => /\sgolden\s/.test(x)))
      expect(l).toContain('100.0000');
  }, 150_000);

  it('compares two KGDS runs on BSP F1', async () => {
    const kgds = (name: string, paragraphs: number) =>
      run({
        name,
        datasets: [{ name: 'kgds', kind: 'kgds', path: KGDS, limit: LIMIT }],
        systems: [
          { name: `lead-${paragraphs}`, strategy: 'ebs-aos', engine: 'lead', params: { paragraphs } },
          { name: `gold-${paragraphs}`, source: 'gold' },
        ],
        metrics: [{ name: 'kgds', judge: { engine: 'lexical' } }],
      });
    const runs = `${await kgds('kgds-lead-2', 2)},${await kgds('kgds-lead-3', 3)}`;
    const ask = await runCli(['leaderboard', '--runs', runs], env());
    expect([ask.code, ask.stderr]).toEqual([
      1,
      'precis: error: the runs share several metrics: choose one with --metric (kgds:bsp-f1, kgds:bsp-p, kgds:bsp-r, kgds:cao-r, kgds:op-gm, kgds:paragraph-ratio)\n',
    ]);
    const lb = await runCli(['leaderboard', '--runs', runs, '--metric', 'kgds:bsp-f1'], env());
    expect(lb.code).toBe(0);
    expect(lb.stdout).toContain(`kgds:bsp-f1: 4 systems on ${LIMIT} shared documents`);
    expect(lineOf(lb.stdout, 'gold-2')).toContain('100.0000');
    expect(lineOf(lb.stdout, 'gold-3')).toContain('100.0000');
    expect(lineOf(lb.stdout, 'lead-2')).toContain(leadBspF1(2).toFixed(4));
    expect(lineOf(lb.stdout, 'lead-3')).toContain(leadBspF1(3).toFixed(4));
  }, 150_000);
});
