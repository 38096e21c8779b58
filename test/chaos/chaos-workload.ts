// What the chaos test runs: a model-backed BooookScore leaderboard over chapters of a real book,
// with the fake model's scripted replies, sized by the plan so the run outlasts its faults.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bookSpec, registryObject } from '../e2e/runs-support.js';
import type { BenchmarkSpec } from '../support/precis.js';

export interface ChaosPlan {
  // Chapters of Alice in Wonderland summarized, each cut to `words` words.
  documents: number;
  words: number;
  // SIGKILLs of random service processes (each started again at once).
  kills: number;
  restartNats: boolean;
  restartPostgres: boolean;
  // Share of model requests answered with a 429, a 500 or a hang (seeded).
  faultRate: number;
  seed: number;
  // The fake model's latency per request.
  latencyMs: number;
  verifiers: number;
  // Tasks each service process runs at once.
  concurrency: number;
}

const BOOK = resolve(import.meta.dirname, '../../../shared/datasets/books/alice-in-wonderland.txt');

const int = (name: string, v: string | undefined, dflt: number) => {
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name}: expected a number >= 0, got "${v}"`);
  return n;
};

// The plan from PRECIS_CHAOS_* variables over the given defaults (`npm run chaos` sets them).
export function planFromEnv(env: NodeJS.ProcessEnv, d: ChaosPlan): ChaosPlan {
  return {
    documents: int('PRECIS_CHAOS_DOCUMENTS', env.PRECIS_CHAOS_DOCUMENTS, d.documents),
    words: int('PRECIS_CHAOS_WORDS', env.PRECIS_CHAOS_WORDS, d.words),
    kills: int('PRECIS_CHAOS_KILLS', env.PRECIS_CHAOS_KILLS, d.kills),
    restartNats: (env.PRECIS_CHAOS_RESTART_NATS ?? String(d.restartNats)) !== 'false',
    restartPostgres: (env.PRECIS_CHAOS_RESTART_POSTGRES ?? String(d.restartPostgres)) !== 'false',
    faultRate: int('PRECIS_CHAOS_FAULT_RATE', env.PRECIS_CHAOS_FAULT_RATE, d.faultRate),
    seed: int('PRECIS_CHAOS_SEED', env.PRECIS_CHAOS_SEED, d.seed),
    latencyMs: int('PRECIS_CHAOS_LATENCY_MS', env.PRECIS_CHAOS_LATENCY_MS, d.latencyMs),
    verifiers: int('PRECIS_CHAOS_VERIFIERS', env.PRECIS_CHAOS_VERIFIERS, d.verifiers),
    concurrency: int('PRECIS_CHAOS_CONCURRENCY', env.PRECIS_CHAOS_CONCURRENCY, d.concurrency),
  };
}

// The first `documents` chapters, `words` words each, as a JSONL dataset in `dir`.
export function writeChapters(dir: string, plan: ChaosPlan): string {
  const chapters = readFileSync(BOOK, 'utf8')
    .split(/^\s*CHAPTER [IVXL]+\.\s*$/m)
    .slice(1)
    .map((c) => c.split(/\s+/).filter(Boolean).slice(0, plan.words).join(' '));
  if (chapters.length < plan.documents)
    throw new Error(`${BOOK} has ${chapters.length} chapters; the plan asks for ${plan.documents}`);
  const file = join(dir, 'chapters.jsonl');
  const lines = chapters
    .slice(0, plan.documents)
    .map((text, i) => JSON.stringify({ id: `chapter-${i + 1}`, text }));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

// The end-to-end tests' book benchmark over the chapters, the judge asked one sentence at a time.
export function chaosSpec(dataset: string): BenchmarkSpec {
  return bookSpec({ name: 'chaos', batchSize: 1, dataset: { name: 'alice', kind: 'jsonl', path: dataset } });
}

// The fake model's registry with a short timeout, so a hung request is given up and sent again.
export function chaosRegistry(baseURL: string) {
  const { models } = registryObject(baseURL);
  const retries = { timeoutMs: 2_000, maxRetries: 6, retryBaseMs: 100, retryMaxMs: 1_000 };
  return { models: { 'fake-model': { ...models['fake-model'], ...retries } } };
}
