import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, RunEntity, type ThrowawayDatabase } from '@precis/db';
import { prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry, type ModelEntryInput } from '@precis/llm';
import { type FakeLlmServer, type FakeProviderProfile, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import { parse } from 'yaml';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  loadTraceBlocks,
  RunCoordinator,
  startStageWorker,
  validateSpec,
} from '../support/precis.js';

// Acceptance of issue 33: the model systems of examples/books.yaml and an opinion spec with a
// model judge, run through every provider profile of the fake server with the provider's preset.
const repo = resolve(import.meta.dirname, '../..');
const BOOKS = parse(readFileSync(resolve(repo, 'examples/books.yaml'), 'utf8')) as {
  systems: { model?: string }[];
};
const BOOK = resolve(repo, '../shared/datasets/books/pride-and-prejudice.txt');
const REVIEWS = resolve(repo, 'examples/data/product-reviews.summeval-op.jsonl');

interface Case {
  profile: FakeProviderProfile;
  entry: Partial<ModelEntryInput> & { model: string };
  // Reasoning models take only temperature 1: the judge spec says so (the preflight would ask it).
  judgeTemperature?: number;
  // What the ledger holds besides the answers: hidden reasoning tokens per call (the fake's
  // default medium effort), raw <think> blocks, a reasoning field, notes on how calls were shaped.
  ledger?: { reasoningPerCall?: number; think?: boolean; field?: boolean; notes?: string[] };
}

const FIXED_T = ["sampled at the model's fixed temperature 1 (asked 0.5)"];

const CASES: Case[] = [
  { profile: 'generic', entry: { model: 'fake-model' } },
  { profile: 'openai', entry: { provider: 'openai', model: 'gpt-4o-mini' } },
  {
    profile: 'openai',
    entry: { provider: 'openai', model: 'gpt-5-mini' },
    judgeTemperature: 1,
    ledger: { reasoningPerCall: 48, notes: FIXED_T },
  },
  {
    profile: 'azure-openai',
    // Its own model id: the response cache is shared by every endpoint serving one model id.
    entry: {
      provider: 'azure-openai',
      model: 'gpt-5-mini-2025-08-07',
      deployment: 'gpt-5-mini',
      apiVersion: '2024-10-21',
    },
    judgeTemperature: 1,
    ledger: { reasoningPerCall: 48, notes: FIXED_T },
  },
  { profile: 'anthropic', entry: { provider: 'anthropic', model: 'claude-sonnet-4-5' } },
  {
    profile: 'gemini',
    entry: { provider: 'gemini', model: 'gemini-2.5-flash' },
    ledger: { reasoningPerCall: 48 },
  },
  { profile: 'vllm', entry: { provider: 'vllm', model: 'Qwen/Qwen3-8B' }, ledger: { think: true } },
  { profile: 'ollama', entry: { provider: 'ollama', model: 'qwen3:8b' }, ledger: { think: true } },
  {
    profile: 'openrouter',
    entry: { provider: 'openrouter', model: 'qwen/qwen3-8b:thinking' },
    ledger: { field: true },
  },
];

const SUMMARY =
  'Elizabeth meets Darcy. She judges him proud. He proposes and is refused. They marry in the end.';
const OPINION = 'Reviewers like the product. Some found a flaw after a month.';
const summaryIn = (prompt: string) => /\nSummary\n([\s\S]*?)\n\n/.exec(prompt)?.[1] ?? '';

async function fakeFor(profile: FakeProviderProfile): Promise<FakeLlmServer> {
  return startFakeLlmServer({
    profile,
    capacity: 64,
    rules: [
      { match: /<score>/, reply: (ctx) => `<score>${1 + (summaryIn(ctx.lastUser).length % 5)}</score>` },
      { match: /review/i, reply: OPINION },
      { match: /./, reply: SUMMARY },
    ],
  });
}

function specs(c: Case) {
  const label = `${c.profile}-${c.entry.model.replace(/[^\w.-]/g, '_')}`;
  const systems = BOOKS.systems.filter((s) => s.model).map((s) => ({ ...s, model: 'm' }));
  const books = {
    name: `books-${label}`,
    seed: 7,
    datasets: [{ name: 'pride-and-prejudice', kind: 'text', path: BOOK }],
    systems,
    metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
  };
  const opinion = {
    name: `opinion-${label}`,
    seed: 7,
    datasets: [{ name: 'reviews', kind: 'summeval-op', path: REVIEWS }],
    systems: [
      { name: 'candidates', source: 'dataset' },
      { name: 'op-model', strategy: 'opinion', model: 'm', params: { budgetWords: 40 } },
    ],
    metrics: [
      {
        name: 'dimensions',
        family: 'op-i',
        dimensions: ['fluency', 'coherence'],
        judge: { model: 'm' },
        samples: 3,
        ...(c.judgeTemperature === undefined ? {} : { temperature: c.judgeTemperature }),
      },
    ],
  };
  return [books, opinion];
}

describe('every provider profile runs the books model systems and a model-judged opinion spec', () => {
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  const values = new Map<string, unknown>();

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('runs_provider_profiles');
    db = await createDataSource({ url: tdb.url });
  });
  afterAll(async () => {
    await db?.destroy();
    await tdb?.drop();
  });

  async function execute(fake: FakeLlmServer, c: Case, raw: Record<string, unknown>) {
    const baseURL = c.profile === 'azure-openai' ? fake.url : fake.baseURL;
    const entry = {
      baseURL,
      contextWindow: 128000,
      maxConcurrency: 16,
      pricePer1MInput: 1,
      pricePer1MOutput: 4,
    };
    const registry = loadModelRegistry({ models: { m: { ...entry, ...c.entry } } });
    const bus = createInProcessBus();
    const ctx = createRunContext({
      prepareImport,
      families: builtInFamilies,
      db,
      bus,
      registry,
      chat: new LlmClient({ registry, env: {}, store: createTypeOrmLlmStore(db) }),
    });
    const workers = await Promise.all(
      (['summarize', 'verify', 'score'] as const).map((s) =>
        startStageWorker(ctx, bus, s, { concurrency: 8 }),
      ),
    );
    const coordinator = new RunCoordinator(ctx, bus, 100);
    await coordinator.start();
    try {
      const { run } = await createRun(ctx, {
        spec: validateSpec(builtInFamilies, raw),
        file: 'spec.yaml',
        text: '',
      });
      return { run, progress: await coordinator.watch(run.id) };
    } finally {
      await coordinator.stop();
      for (const w of workers) await w.stop();
      await bus.close();
    }
  }

  // Per-sample values by system, document and metric: what every leaderboard is computed from.
  const sampleValues = (runId: string) =>
    db.query(
      `SELECT system, d.ordinal, metric, value FROM metric_values v JOIN documents d ON d.id = v.document_id
       WHERE v.run_id = $1 ORDER BY 1, 2, 3`,
      [runId],
    );

  it.each(CASES.map((c) => [`${c.profile} ${c.entry.model}`, c] as const))('%s', async (_label, c) => {
    const fake = await fakeFor(c.profile);
    try {
      for (const raw of specs(c)) {
        const { run, progress } = await execute(fake, c, raw);
        expect([raw.name, progress.status, progress.error]).toEqual([raw.name, 'completed', null]);
        const found = await sampleValues(run.id);
        const kind = String(raw.name).split('-')[0]!;
        // Books: BooookScore of 2 systems x 1 book; opinion: 2 dimensions x 2 products x
        // (3 dataset candidates + op-model).
        expect([kind, found.length]).toEqual([kind, kind === 'books' ? 2 : 16]);
        if (c.profile === 'generic') values.set(kind, found);
        else expect(found).toEqual(values.get(kind));
        await expectNoReasoningStored(db, run.id);
        await expectLedger(run.id, c.ledger ?? {});
      }
      // No request was refused: every answer the endpoint gave was a 200.
      expect(Object.keys(fake.stats().byStatus)).toEqual(['200']);
    } finally {
      await fake.close();
    }
  });

  // Every answered call of the run keeps its raw reply; reasoning is counted where reported.
  async function expectLedger(runId: string, want: NonNullable<Case['ledger']>) {
    const [got] = await db.query(
      `SELECT count(*)::int AS calls, sum(tokens_reasoning)::int AS reasoning,
              count(*) FILTER (WHERE response::text LIKE '%<think>%')::int AS think,
              count(*) FILTER (WHERE response::text LIKE '%"reasoning": "%' AND tokens_reasoning > 0)::int AS field,
              array(SELECT DISTINCT jsonb_array_elements_text(notes) FROM llm_calls
                    WHERE run_id = $1 AND notes IS NOT NULL ORDER BY 1) AS notes
       FROM llm_calls WHERE run_id = $1 AND status = 'ok'`,
      [runId],
    );
    expect(got.calls).toBeGreaterThan(0);
    expect(got).toEqual({
      calls: got.calls,
      reasoning: (want.reasoningPerCall ?? 0) * got.calls + (want.field ? got.reasoning : 0),
      think: want.think ? got.calls : 0,
      field: want.field ? got.calls : 0,
      notes: want.notes ?? [],
    });
  }

  async function expectNoReasoningStored(db: DataSource, runId: string) {
    const leaks = await db.query(
      `SELECT (SELECT count(*)::int FROM summaries WHERE run_id = $1 AND text LIKE '%<think>%') AS summaries,
              (SELECT count(*)::int FROM judgments WHERE run_id = $1 AND verdict::text LIKE '%think>%') AS verdicts`,
      [runId],
    );
    expect(leaks).toEqual([{ summaries: 0, verdicts: 0 }]);
    const [doc] = await db.query(
      `SELECT DISTINCT document_id FROM summaries WHERE run_id = $1 AND document_id IS NOT NULL LIMIT 1`,
      [runId],
    );
    const run = await db.getRepository(RunEntity).findOneByOrFail({ id: runId });
    const trace = JSON.stringify(await loadTraceBlocks(builtInFamilies, db, run, doc.document_id));
    expect(trace).not.toContain('<think>');
  }
});
