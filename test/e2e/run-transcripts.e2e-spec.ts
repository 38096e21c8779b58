// A document's transcripts and a run's own facts wherever they are read: two runs of the same
// model-backed spec (the second answered from the cache) made on the gateway's database, then
// REST (paged), gRPC, and `runs show --trace --calls` local and --remote, which print the same.
// Needs the build: `npx turbo run build` (the gateway and the CLI run from dist).

import { resolve } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createInProcessBus } from '@precis/bus';
import type { GetRunFactsResponse, ListDocumentCallsResponse } from '@precis/contracts';
import { prepareImport } from '@precis/ingest';
import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import {
  createResponseCheck,
  type FakeLlmServer,
  type OpenApiDoc,
  parseRules,
  startFakeLlmServer,
} from '@precis/testing';
import { runCli } from '../../apps/cli/test/run-cli.js';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  executeRun,
  type LedgerCallView,
  validateSpec,
} from '../support/precis.js';
import { answer, authorized, type GatewayStack, startGatewayStack } from './gateway-support.js';
import { FIXED_SUMMARY, judgeRules, repoRoot, tempDir, writeJson } from './runs-support.js';

const DOC = 'the-lighthouse-keeper.md';
// A key the registry names by its variable: no answer may carry it.
const SECRET = 'sk-transcripts-0123456789abcdefghij';
const CHUNK_LINE =
  'Below is one part of a longer story. Summarize this part in at most 60 words. Cover the key events, the characters involved and their motivations, and the setting. Write plain prose; do not mention that this is a part or a summary.';

// The summarizer answers plainly; the judge is a thinking model whose replies open with <think>.
function registry(baseURL: string) {
  const common = { baseURL, provider: 'vllm', contextWindow: 8192, maxConcurrency: 8 };
  return {
    models: {
      'fake-model': { ...common, model: 'fake-model', pricePer1MInput: 1, pricePer1MOutput: 2 },
      'fake-thinker': { ...common, model: 'qwen3-fake', apiKeyEnv: 'FAKE_THINKER_KEY', pricePer1MInput: 3 },
    },
  };
}

const spec = () =>
  validateSpec(builtInFamilies, {
    name: 'transcripts',
    datasets: [
      { name: 'lighthouse', kind: 'text', path: resolve(repoRoot, 'examples/data/the-lighthouse-keeper.md') },
    ],
    systems: [
      {
        name: 'hier-fake',
        strategy: 'hierarchical',
        model: 'fake-model',
        params: { chunkSize: 200, levelBudgets: [60, 120] },
      },
    ],
    metrics: [{ name: 'booookscore', judge: { model: 'fake-thinker' }, mode: 'batched', batchSize: 2 }],
    seed: 7,
  });

describe('transcripts and run facts over REST, gRPC and the CLI', () => {
  const scratch = tempDir('precis-transcripts-');
  let stack: GatewayStack;
  let fake: FakeLlmServer;
  let first: string;
  let second: string;
  let base: string;

  const runOnce = async () => {
    const reg = loadModelRegistry(registry(fake.baseURL));
    const chat = new LlmClient({
      registry: reg,
      env: { FAKE_THINKER_KEY: SECRET },
      store: createTypeOrmLlmStore(stack.db),
    });
    const bus = createInProcessBus();
    try {
      const ctx = createRunContext({
        prepareImport,
        families: builtInFamilies,
        db: stack.db,
        bus,
        chat,
        registry: reg,
      });
      const { run } = await createRun(ctx, { spec: spec(), file: 'spec', text: '' }, { fresh: true });
      const done = await executeRun(ctx, bus, run.id, { concurrency: 4 });
      expect(done.interrupted ? 'interrupted' : done.progress.status).toBe('completed');
      return run.id;
    } finally {
      await bus.close();
    }
  };

  beforeAll(async () => {
    fake = await startFakeLlmServer({
      latencyMs: 1,
      capacity: 64,
      profile: 'vllm',
      rules: parseRules(judgeRules()),
    });
    const models = writeJson(resolve(scratch.dir, 'models.json'), registry(fake.baseURL));
    stack = await startGatewayStack({
      name: 'transcripts',
      env: { PRECIS_MODELS: models, FAKE_THINKER_KEY: SECRET },
    });
    base = `http://127.0.0.1:${stack.gateway.httpPort}`;
    first = await runOnce();
    second = await runOnce();
  }, 180_000);

  afterAll(async () => {
    await stack?.stop();
    await fake?.close();
    scratch.remove();
  });

  // Each answer matches the document the gateway serves (real calls: prompts, replies, cache).
  let check: ReturnType<typeof createResponseCheck> | undefined;
  const get = async (path: string, key = stack.key) => {
    check ??= createResponseCheck((await (await fetch(`${base}/api/openapi.json`)).json()) as OpenApiDoc);
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
    // biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
    const body = (await res.json()) as Record<string, any>;
    expect([path, res.status, check.problems('GET', path, res.status, body)]).toEqual([path, res.status, []]);
    return { status: res.status, body };
  };
  const callsPath = (run: string, query = '') => `/api/v1/runs/${run}/traces/${DOC}/calls${query}`;

  it('REST pages through every call of the document, by system then in order', async () => {
    const all = await get(callsPath(first, '?limit=100'));
    expect(all.status).toBe(200);
    const total = all.body.total as number;
    expect([all.body.calls.length, all.body.nextPageToken, all.body.document.externalId]).toEqual([
      total,
      '',
      DOC,
    ]);
    const paged: LedgerCallView[] = [];
    let token = '';
    let pages = 0;
    do {
      const page = await get(callsPath(first, `?limit=3${token ? `&pageToken=${token}` : ''}`));
      expect([page.status, page.body.total]).toEqual([200, total]);
      paged.push(...page.body.calls);
      token = page.body.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(Math.ceil(total / 3));
    expect(paged).toEqual(all.body.calls);
    const systems = paged.map((c) => c.system);
    expect(systems).toEqual([...systems].sort());
    expect(new Set(paged.map((c) => c.stage))).toEqual(new Set(['summarize', 'verify']));
    const onlyHier = await get(callsPath(first, '?system=hier-textrank'));
    expect([onlyHier.body.total, onlyHier.body.calls]).toEqual([0, []]);
  });

  it('REST refuses a bad limit, a foreign page token, an unknown document or no key', async () => {
    const page = await get(callsPath(first, '?limit=2'));
    const otherList = await get(callsPath(first, `?system=hier-fake&pageToken=${page.body.nextPageToken}`));
    const answers = await Promise.all([
      get(callsPath(first, '?limit=0')),
      get(callsPath(first, '?pageToken=bogus')),
      get(`/api/v1/runs/${first}/traces/no-such-doc/calls`),
      get(callsPath(first), 'precis_not-a-key'),
    ]);
    expect([otherList, ...answers].map((a) => [a.status, a.body.error])).toEqual([
      [400, 'page_token: not a token this gateway issued for this list; start again without one'],
      [400, 'limit: expected an integer from 1 to 100, received "0"'],
      [400, 'page_token: not a token this gateway issued for this list; start again without one'],
      [404, `run ${first} has no document "no-such-doc"; give a document's external id, e.g. ${DOC}`],
      [401, expect.any(String)],
    ]);
  });

  it('a call shows its prompt and its raw reply, the reasoning apart from the answer', async () => {
    const { body } = await get(callsPath(first, '?limit=100'));
    const calls = body.calls as LedgerCallView[];
    const chunk = calls.find((c) => c.messages.some((m) => m.content.startsWith(CHUNK_LINE)))!;
    expect(chunk).toMatchObject({
      stage: 'summarize',
      system: 'hier-fake',
      model: 'fake-model',
      modelId: 'fake-model',
      status: 'ok',
      cacheHit: false,
      templateVersion: '1',
      replies: [{ text: FIXED_SUMMARY, reasoning: null, finishReason: 'stop' }],
      cachedFrom: [],
    });
    expect(chunk.messages.map((m) => m.role)).toEqual(['system', 'user']);
    const judge = calls.find((c) => c.stage === 'verify')!;
    expect(judge).toMatchObject({ model: 'fake-thinker', modelId: 'qwen3-fake', status: 'ok' });
    expect(judge.messages.at(-1)!.content).toContain('Target sentences (numbered as in the summary):\n[1] ');
    expect(judge.replies[0]!.text).toBe(
      JSON.stringify({
        1: { confusing: false },
        2: { confusing: true, questions: ['Who is meant in sentence 2?'], types: ['entity omission'] },
      }),
    );
    expect(judge.replies[0]!.reasoning).toMatch(/^The user wants a reply to "/);
    const raw = (judge.response as { choices: { message: { content: string } }[] }).choices[0]!.message
      .content;
    expect(raw.startsWith(`<think>\n${judge.replies[0]!.reasoning}\n</think>\n\n`)).toBe(true);
  });

  it("a cache hit shows the call that filled the entry, with that call's prompt and reply", async () => {
    const firstCalls = (await get(callsPath(first, '?limit=100'))).body.calls as LedgerCallView[];
    const hits = (await get(callsPath(second, '?limit=100'))).body.calls as LedgerCallView[];
    expect(hits.length).toBe(firstCalls.length);
    for (const hit of hits) {
      expect([hit.cacheHit, hit.status, hit.costUsd, hit.cachedFrom.length]).toEqual([true, 'cached', 0, 1]);
      const filler = firstCalls.find((c) => c.id === hit.cachedFrom[0]!.id)!;
      expect(hit.cachedFrom[0]).toEqual({
        id: filler.id,
        runId: first,
        taskId: filler.taskId,
        createdAt: filler.createdAt,
      });
      expect([hit.messages, hit.replies, hit.params]).toEqual([
        filler.messages,
        filler.replies,
        filler.params,
      ]);
    }
  });

  it('gRPC ListDocumentCalls gives the same page; GetRunFacts the same facts', async () => {
    const md = authorized(stack.key);
    const rest = (await get(callsPath(first, '?limit=5'))).body;
    const page = await answer<ListDocumentCallsResponse>(md, (m, o, cb) =>
      stack.runs.listDocumentCalls(
        { runId: first, document: DOC, system: '', pageSize: 5, pageToken: '' },
        m,
        o,
        cb,
      ),
    );
    expect(page.code).toBe(status.OK);
    expect([page.value!.total, page.value!.calls.map((c) => c.id)]).toEqual([
      rest.total,
      rest.calls.map((c: LedgerCallView) => c.id),
    ]);
    const refused = await answer(authorized('precis_wrong'), (m, o, cb) =>
      stack.runs.getRunFacts({ runId: first }, m, o, cb),
    );
    expect(refused.code).toBe(status.UNAUTHENTICATED);
    const facts = await answer<GetRunFactsResponse>(md, (m, o, cb) =>
      stack.runs.getRunFacts({ runId: first }, m, o, cb),
    );
    const restFacts = (await get(`/api/v1/runs/${first}/facts`)).body;
    expect([facts.value!.seed, JSON.parse(facts.value!.specJson)]).toEqual([7, restFacts.spec]);
    expect(facts.value!.models.map((m) => [m.name, m.entry?.modelId, m.entry?.apiKeyEnv])).toEqual([
      ['fake-model', 'fake-model', ''],
      ['fake-thinker', 'qwen3-fake', 'FAKE_THINKER_KEY'],
    ]);
  });

  it('REST facts: the stored spec, the seed, model entries without keys, templates with versions', async () => {
    const { status: code, body } = await get(`/api/v1/runs/${first}/facts`);
    expect(code).toBe(200);
    expect(JSON.stringify(body)).not.toContain(SECRET);
    expect([body.seed, body.spec.seed, body.spec.name, body.registry]).toEqual([
      7,
      7,
      'transcripts',
      'PRECIS_MODELS',
    ]);
    expect(body.models).toEqual([
      expect.objectContaining({ name: 'fake-model', uses: ['systems[0].model'], modelIds: ['fake-model'] }),
      expect.objectContaining({
        name: 'fake-thinker',
        uses: ['metrics[0].judge.model'],
        modelIds: ['qwen3-fake'],
      }),
    ]);
    expect(body.models[1].entry).toMatchObject({
      provider: 'vllm',
      modelId: 'qwen3-fake',
      baseURL: fake.baseURL,
      apiKeyEnv: 'FAKE_THINKER_KEY',
      pricePer1MInput: '3',
      contextWindow: 8192,
      maxConcurrency: 8,
    });
    expect(body.templates.map((t: { id: string; version: string }) => `${t.id}@${t.version}`)).toEqual(
      expect.arrayContaining(['book.chunk-summary@1', 'booookscore.annotate-batch@1']),
    );
    expect(body.ledgerVersions).toEqual(
      expect.arrayContaining([{ version: '1', calls: expect.any(Number) }]),
    );
  });

  it('runs show --trace --calls prints the same calls from the database and through the gateway', async () => {
    const local = { DATABASE_URL: stack.common.DATABASE_URL };
    const remote = { PRECIS_API_KEY: stack.key };
    for (const extra of [[], ['--json']]) {
      const args = ['runs', 'show', second, '--trace', DOC, '--calls', ...extra];
      const [mine, theirs] = await Promise.all([
        runCli(args, local),
        runCli(['--remote', stack.address, ...args], remote),
      ]);
      expect([mine.code, mine.stderr]).toEqual([0, '']);
      expect([theirs.code, theirs.stderr]).toEqual([0, '']);
      expect(theirs.stdout).toBe(mine.stdout);
    }
    const text = (await runCli(['runs', 'show', second, '--trace', DOC, '--calls'], local)).stdout;
    expect(text).toContain(`\n      ${CHUNK_LINE}\n`);
    expect(text).toContain(`    [reply]\n      ${FIXED_SUMMARY}\n`);
    expect(text).toMatch(/\n {4}\[reasoning\]\n {6}The user wants a reply to "/);
    expect(text).toMatch(
      new RegExp(`\\n {4}cache hit: replays call [0-9a-f-]{36} \\(run ${first}, task ${first}:`),
    );
    const trace = await runCli(['--remote', stack.address, 'runs', 'show', second, '--trace', DOC], remote);
    expect(trace.stdout).toBe((await runCli(['runs', 'show', second, '--trace', DOC], local)).stdout);
  });

  it('runs show --calls without --trace says to name the document', async () => {
    const res = await runCli(['runs', 'show', first, '--calls'], { DATABASE_URL: stack.common.DATABASE_URL });
    expect([res.code, res.stderr.trim()]).toEqual([
      1,
      'precis: error: runs show --calls: give the document too, e.g. --trace <document> --calls',
    ]);
  });
});
