import { resolve } from 'node:path';
import { createInProcessBus } from '@precis/bus';
import { createDataSource, createThrowawayDatabase, RunEntity } from '@precis/db';
import { prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import { type FakeLlmServer, type FakeRule, startFakeLlmServer } from '@precis/testing';
import type { DataSource } from 'typeorm';
import {
  type BenchmarkSpec,
  builtInFamilies,
  createRun,
  createRunContext,
  type FullRunReport,
  loadFullRunReport,
  type PluginAddressPolicy,
  type RunContext,
  RunCoordinator,
  type RunLogger,
  type RunProgress,
  renderRunReport,
  startStageWorker,
  validateSpec,
} from '../support/precis.js';

const repo = resolve(import.meta.dirname, '../..');
export const SUMMEVAL_OP = resolve(repo, '../shared/datasets/summeval-op/summeval-op.jsonl');

// The judge marks sentence k of a batch confusing when (k + prompt length) % 3 == 0, and scores
// a dimension 1 + prompt length % 5: scores differ per summary, so a bootstrap has spread.
function judgeReply(prompt: string): string {
  const numbers = [...prompt.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
  return JSON.stringify(
    Object.fromEntries(
      numbers.map((n) => [
        n,
        (n + prompt.length) % 3 === 0
          ? { confusing: true, questions: ['Which one?'], types: ['entity omission'] }
          : { confusing: false },
      ]),
    ),
  );
}

export interface ExecutedRun {
  run: RunEntity;
  spec: BenchmarkSpec;
  ctx: RunContext;
  progress: RunProgress;
  report: FullRunReport;
}

export interface RunHarness {
  db: DataSource;
  fake: FakeLlmServer;
  // Runs a spec to its end with `fresh` (a new run each time) and loads its report. Models:
  // "judge" (scripted replies) and "down" (every request answers HTTP 500); no client retries,
  // two deliveries per task.
  execute(raw: Record<string, unknown>): Promise<ExecutedRun>;
  close(): Promise<void>;
}

// extra: rules answered before the built-in ones, and more model names (same endpoint); the
// plugin addresses and the logger of a service's context.
export async function startRunHarness(
  name: string,
  extra: {
    rules?: FakeRule[];
    models?: string[];
    embeddings?: string[];
    pluginAddresses?: PluginAddressPolicy;
    logger?: RunLogger;
  } = {},
): Promise<RunHarness> {
  const tdb = await createThrowawayDatabase(name);
  const db = await createDataSource({ url: tdb.url });
  const fake = await startFakeLlmServer({
    latencyMs: 1,
    capacity: 64,
    rules: [
      ...(extra.rules ?? []),
      { match: /Target sentences/, reply: (ctx) => judgeReply(ctx.lastUser) },
      { match: /<score>/, reply: (ctx) => `<score>${1 + (ctx.lastUser.length % 5)}</score>` },
    ],
    randomFaults: { probability: 1, kinds: [{ kind: 'server-error' }], filter: { model: 'down' } },
  });
  const model = (m: string) => ({
    baseURL: fake.baseURL,
    model: m,
    contextWindow: 8192,
    maxConcurrency: 16,
    maxRetries: 0,
  });
  const names = ['judge', 'down', ...(extra.models ?? [])];
  const embedders = (extra.embeddings ?? []).map((m) => [m, { ...model(m), kind: 'embedding' }]);
  const registry = loadModelRegistry({
    models: Object.fromEntries([...names.map((m) => [m, model(m)]), ...embedders]),
  });

  async function execute(raw: Record<string, unknown>): Promise<ExecutedRun> {
    const spec = validateSpec(builtInFamilies, raw);
    const bus = createInProcessBus();
    const ctx = createRunContext({
      prepareImport,
      families: builtInFamilies,
      db,
      bus,
      registry,
      chat: new LlmClient({ registry, env: {}, store: createTypeOrmLlmStore(db) }),
      pluginAddresses: extra.pluginAddresses,
      logger: extra.logger,
    });
    const workers = await Promise.all(
      (['retrieve', 'summarize', 'verify', 'score'] as const).map((s) =>
        startStageWorker(ctx, bus, s, { concurrency: 8, maxDeliver: 2, backoffMs: [5] }),
      ),
    );
    const coordinator = new RunCoordinator(ctx, bus, 100);
    await coordinator.start();
    try {
      const { run } = await createRun(ctx, { spec, file: 'spec.yaml', text: '' }, { fresh: true });
      const progress = await coordinator.watch(run.id);
      const stored = await db.getRepository(RunEntity).findOneByOrFail({ id: run.id });
      return {
        run: stored,
        spec,
        ctx,
        progress,
        report: await loadFullRunReport(builtInFamilies, db, stored),
      };
    } finally {
      await coordinator.stop();
      for (const w of workers) await w.stop();
      await bus.close();
    }
  }

  return {
    db,
    fake,
    execute,
    async close() {
      await fake.close();
      await db.destroy();
      await tdb.drop();
    },
  };
}

// What two runs of one spec may differ in is the run header (id, name, status, timestamps):
// every format keeps it apart from the results (`run` in JSON, the title line in md; csv has
// none), so the rest is compared whole.
export function reportResults(report: FullRunReport) {
  const json = JSON.parse(renderRunReport(report, 'json')) as Record<string, unknown>;
  delete json.run;
  const md = renderRunReport(report, 'md')
    .split('\n')
    .filter((l) => !l.startsWith('# Run '))
    .join('\n');
  return { json, md, csv: renderRunReport(report, 'csv') };
}
