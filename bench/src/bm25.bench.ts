import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { analyze, Bm25Index } from '@precis/retrievers';
import MiniSearch, { type SearchOptions } from 'minisearch';
// @ts-expect-error the package ships no types
import bm25Factory from 'wink-bm25-text-search';

// BM25 index build time, memory and queries/s of @precis/retrievers beside two JavaScript
// libraries on the same documents, all configured alike: the same analyzer (our English analyzer
// as their tokenizer), k1 0.9, b 0.4, Lucene's idf. MiniSearch multiplies a score by the number
// of matched query terms and normalizes length by distinct terms, so it cannot be configured
// exactly alike: its results are re-ranked by score / terms (and measured natively too).
// Args: --synthetic <n> (default 100000) --queries <n> (default 2000).

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const persphere = resolve(repoRoot, '../shared/datasets/persphere');

interface Doc {
  id: string;
  text: string;
}

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
}

function jsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);
}

// A corpus of n documents drawn from the real one's vocabulary (seeded), sentences of 20-200 words.
function synthetic(real: Doc[], n: number): Doc[] {
  const words = real.flatMap((d) => d.text.split(/\s+/)).filter(Boolean);
  let seed = 12345;
  const rnd = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  return Array.from({ length: n }, (_, i) => {
    const len = 20 + Math.floor(rnd() * 180);
    return {
      id: `s${i}`,
      text: Array.from({ length: len }, () => words[Math.floor(rnd() * words.length)]).join(' '),
    };
  });
}

// A full collection before each reading, so heap deltas are what the index keeps.
v8.setFlagsFromString('--expose_gc');
const gc = runInNewContext('gc') as () => void;

function heapMb(): number {
  gc();
  return (process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers) / 1e6;
}

interface Engine {
  build(docs: Doc[]): void;
  top10(query: string): string[];
}

const tokenize = (text: string) => analyze(text);

function precis(): Engine {
  let index: Bm25Index;
  return {
    build: (docs) => {
      index = Bm25Index.build(docs);
    },
    top10: (q) => index.search(q, 10).hits.map((h) => h.id),
  };
}

// MiniSearch normalizes length by distinct terms and multiplies by matched query terms: `native`
// keeps its own ranking (its throughput); otherwise its results are re-ranked to plain BM25.
function minisearch(native: boolean): Engine {
  let ms: MiniSearch<Doc>;
  const options: SearchOptions = {
    bm25: { k: 0.9, b: 0.4, d: 0 },
    prefix: false,
    fuzzy: false,
    combineWith: 'OR',
  };
  return {
    build: (docs) => {
      ms = new MiniSearch<Doc>({ fields: ['text'], tokenize, processTerm: (t) => t });
      ms.addAll(docs);
    },
    top10: (q) => {
      const found = ms.search(q, options);
      if (native) return found.slice(0, 10).map((r) => String(r.id));
      return found
        .map((r) => ({ id: String(r.id), score: r.score / r.queryTerms.length }))
        .sort((a, b) => b.score - a.score)
        .slice(0, 10)
        .map((r) => r.id);
    },
  };
}

function wink(): Engine {
  let engine: { search(q: string, n: number): [string, number][] };
  return {
    build: (docs) => {
      const e = bm25Factory();
      e.defineConfig({ fldWeights: { text: 1 }, bm25Params: { k1: 0.9, b: 0.4, k: 1 } });
      e.definePrepTasks([tokenize]);
      for (const d of docs) e.addDoc({ text: d.text }, d.id);
      e.consolidate(8);
      engine = e;
    },
    top10: (q) => engine.search(q, 10).map(([id]) => id),
  };
}

function measure(name: string, make: () => Engine, docs: Doc[], queries: string[]) {
  const engine = make();
  const before = heapMb();
  const t0 = performance.now();
  engine.build(docs);
  const buildMs = performance.now() - t0;
  const heap = heapMb() - before;
  for (const q of queries.slice(0, 50)) engine.top10(q);
  const t1 = performance.now();
  const tops = queries.map((q) => engine.top10(q));
  const qps = queries.length / ((performance.now() - t1) / 1000);
  return { name, buildMs: Math.round(buildMs), heapMb: Math.round(heap), qps: Math.round(qps), tops };
}

// Queries whose top-10 ids are the same set (ties at the cut may order differently).
function sameTop10(a: string[][], b: string[][]): number {
  return a.filter((x, i) => {
    const y = new Set(b[i]);
    return x.length === y.size && x.every((id) => y.has(id));
  }).length;
}

function compare(label: string, docs: Doc[], queries: string[]) {
  const ours = measure('precis', precis, docs, queries);
  const others = [
    measure('minisearch', () => minisearch(false), docs, queries),
    measure('minisearch_native', () => minisearch(true), docs, queries),
    measure('wink', wink, docs, queries),
  ];
  const metrics: Record<string, number> = {
    [`${label}_docs`]: docs.length,
    [`${label}_queries`]: queries.length,
    [`${label}_precis_build_ms`]: ours.buildMs,
    [`${label}_precis_heap_mb`]: ours.heapMb,
    [`${label}_precis_qps`]: ours.qps,
  };
  for (const o of others) {
    metrics[`${label}_${o.name}_build_ms`] = o.buildMs;
    metrics[`${label}_${o.name}_heap_mb`] = o.heapMb;
    metrics[`${label}_${o.name}_qps`] = o.qps;
    metrics[`${label}_qps_ratio_vs_${o.name}`] = Math.round((ours.qps / o.qps) * 100) / 100;
    metrics[`${label}_same_top10_vs_${o.name}`] = sameTop10(ours.tops, o.tops);
  }
  return metrics;
}

export async function run(args: string[]) {
  const docs = jsonl<{ id: number; content: string }>(
    resolve(persphere, 'theperspective.documents.jsonl'),
  ).map((d) => ({ id: String(d.id), text: d.content }));
  const rows = jsonl<{ title: string; t1: string; t2: string }>(
    resolve(persphere, 'theperspective.queries.jsonl'),
  );
  // Titles and both claims: 555 real queries, cycled to the asked count.
  const real = rows.flatMap((r) => [r.title, r.t1, r.t2]);
  const count = Number(arg(args, 'queries') ?? 2000);
  const queries = Array.from({ length: count }, (_, i) => real[i % real.length]!);
  const n = Number(arg(args, 'synthetic') ?? 100000);
  return {
    name: 'bm25',
    description: `BM25 (k1 0.9, b 0.4, English analyzer) build, heap and top-10 queries/s: @precis/retrievers vs minisearch 7.2 and wink-bm25-text-search 3.1 on Theperspective (4,107 docs) and ${n} synthetic docs; same_top10 = queries with identical top-10 sets`,
    metrics: {
      ...compare('tp', docs, queries),
      ...compare('syn', synthetic(docs, n), queries.slice(0, 500)),
    },
  };
}
