// The gateway's REST API as its own process: API keys as `Authorization: Bearer`, runs, reports
// and datasets read from the database a run wrote, and the OpenAPI document.
// Needs the build: `npx turbo run build` (the gateway runs from dist).
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { renderRunReportAs } from '@precis/api/report-html';
import { createInProcessBus } from '@precis/bus';
import type { GetRunReportResponse } from '@precis/contracts';
import { createApiKey } from '@precis/db';
import { importDataset, prepareImport } from '@precis/ingest';
import { createResponseCheck, type OpenApiDoc, type ResponseCheck } from '@precis/testing';
import { Validator } from '@seriousme/openapi-schema-validator';
import { runCli } from '../../apps/cli/test/run-cli.js';
import {
  builtInFamilies,
  createRun,
  createRunContext,
  crossRunBlocks,
  crossRunLeaderboard,
  executeRun,
  findRun,
  loadFullRunReport,
  renderBlocks,
  renderRunReport,
  runPageData,
  validateSpec,
} from '../support/precis.js';
import { answer, authorized, type GatewayStack, startGatewayStack } from './gateway-support.js';
import { repoRoot } from './runs-support.js';

const ROUTES = [
  '/api/v1/runs',
  '/api/v1/runs/x',
  '/api/v1/runs/x/report',
  '/api/v1/runs/x/traces/y',
  '/api/v1/runs/x/traces/y/calls',
  '/api/v1/runs/x/facts',
  '/api/v1/runs/x/view',
  '/api/v1/runs/x/samples',
  '/api/v1/datasets',
];

describe('the REST API', () => {
  let stack: GatewayStack;
  let runId: string;
  let base: string;
  // Every answer of /api/v1 below is checked against the document the gateway serves.
  let check: ResponseCheck;

  beforeAll(async () => {
    stack = await startGatewayStack({ name: 'rest', withIngestion: true, env: { INGEST_ROOT: repoRoot } });
    base = `http://127.0.0.1:${stack.gateway.httpPort}`;
    check = createResponseCheck((await (await fetch(`${base}/api/openapi.json`)).json()) as OpenApiDoc);
    // An offline run written to the gateway's database by the engine in this process.
    const bus = createInProcessBus();
    const ctx = createRunContext({ prepareImport, families: builtInFamilies, db: stack.db, bus });
    const spec = validateSpec(builtInFamilies, {
      name: 'rest-quickstart',
      datasets: [
        {
          name: 'example-book',
          kind: 'text',
          path: resolve(repoRoot, 'examples/data/the-lighthouse-keeper.md'),
        },
      ],
      systems: [
        {
          name: 'hier-lead',
          strategy: 'hierarchical',
          engine: 'lead',
          params: { chunkSize: 256, levelBudgets: [60, 120] },
        },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    const { run } = await createRun(ctx, { spec, file: 'spec.yaml', text: '' });
    await executeRun(ctx, bus, run.id, { concurrency: 2 });
    await bus.close();
    runId = run.id;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  const get = async (path: string, key?: string, init: RequestInit = {}) => {
    const res = await fetch(`${base}${path}`, {
      ...init,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), 'content-type': 'application/json' },
    });
    // biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
    const body = (await res.json()) as Record<string, any>;
    if (path.startsWith('/api/v1/')) {
      const at = [init.method ?? 'GET', path, res.status];
      expect([...at, check.problems(init.method ?? 'GET', path, res.status, body)]).toEqual([...at, []]);
    }
    return { status: res.status, body };
  };

  it('answers 401 without a key or with an unknown one; health and the OpenAPI document are open', async () => {
    for (const path of ROUTES) {
      const none = await get(path);
      expect([path, none.status, none.body.error]).toEqual([
        path,
        401,
        'missing or invalid API key: send the header `Authorization: Bearer <key>`; create a key with `precis keys create <name>`',
      ]);
      expect((await get(path, 'precis_not-a-real-key-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).status).toBe(401);
    }
    expect((await get('/health/live')).status).toBe(200);
    expect((await get('/api/openapi.json')).status).toBe(200);
    // The web page holds no data: it asks the visitor for a key.
    const page = await fetch(`${base}/`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    expect(await page.text()).toContain('<div id="app"></div>');
  });

  it("gives the web page a run's blocks and figures, and its samples one page at a time", async () => {
    const view = await get(`/api/v1/runs/${runId}/view`, stack.key);
    const full = await loadFullRunReport(builtInFamilies, stack.db, await findRun(stack.db, runId));
    expect(view.body).toEqual(JSON.parse(JSON.stringify(runPageData(full))));
    expect(view.body.blocks.map((b: { key: string }) => b.key)).toEqual([
      'booookscore.0',
      'booookscore.0.error-types',
    ]);
    expect(view.body.sections.map((s: { key: string; title: string }) => [s.key, s.title])).toEqual([
      ['booookscore.0', 'BooookScore (coherence)'],
    ]);
    expect(view.body.figures[0]).toMatchObject({
      title: 'BooookScore, judged by engine:heuristic-duplication@1 (heuristic)',
      metric: 'BooookScore (%)',
      points: [{ system: 'hier-lead', score: 100, ci95: [100, 100], costUsd: 0 }],
    });
    const first = await get(`/api/v1/runs/${runId}/samples?limit=1`, stack.key);
    expect(first.body).toEqual({
      total: 1,
      offset: 0,
      samples: [
        {
          document: 'the-lighthouse-keeper.md',
          documentId: expect.any(String),
          system: 'hier-lead',
          metric: 'booookscore.0',
          // In percent, as the report's BooookScore column.
          value: 100,
          producedBy: 'engine:heuristic-duplication@1 (heuristic)',
        },
      ],
      // What the table's filters offer: the run's systems and metrics with values.
      systems: ['hier-lead'],
      metrics: ['booookscore.0'],
    });
    expect((await get(`/api/v1/runs/${runId}/samples?offset=1`, stack.key)).body.samples).toEqual([]);
    const bad = await get(`/api/v1/runs/${runId}/samples?limit=5000`, stack.key);
    expect([bad.status, bad.body.error]).toEqual([
      400,
      'limit: expected an integer from 1 to 1000, received "5000"',
    ]);
  });

  it('lists and shows runs, and gives the same report JSON as precis report --format json', async () => {
    const list = await get('/api/v1/runs', stack.key);
    expect(list.status).toBe(200);
    expect(list.body.runs.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      [runId, 'completed'],
    ]);
    const show = await get(`/api/v1/runs/${runId.slice(0, 8)}`, stack.key);
    expect([show.body.run.id, show.body.run.taskCounts.failed, show.body.spec.name]).toEqual([
      runId,
      0,
      'rest-quickstart',
    ]);
    const report = await get(`/api/v1/runs/${runId}/report`, stack.key);
    const full = await loadFullRunReport(builtInFamilies, stack.db, await findRun(stack.db, runId));
    expect(report.body).toEqual(JSON.parse(renderRunReport(full, 'json')));
    // One shape for every family: sections[], each ranked on its per-document values.
    expect(Object.keys(report.body)).toEqual(['run', 'sections']);
    const [section] = report.body.sections;
    expect({ ...section, notes: section.notes.length, rows: section.rows.length }).toEqual({
      key: 'booookscore.0',
      family: 'books',
      metric: 'booookscore',
      label: 'booookscore.0',
      title: 'BooookScore (coherence)',
      rankingMetric: 'booookscore.0',
      rankingColumn: 'BooookScore',
      higherIsBetter: true,
      alpha: 0.05,
      resamples: 1000,
      documents: 1,
      notes: 2,
      details: { bootstrapResamples: 1000 },
      rows: 1,
    });
    expect(section.rows[0]).toMatchObject({
      system: 'hier-lead',
      rank: 1,
      rankLabel: '1',
      score: 100,
      ciLow: 100,
      ciHigh: 100,
      work: { summaries: { expected: 1, failed: 0 } },
      status: 'complete',
      usage: { calls: 0, tokensIn: 0, tokensOut: 0, tokensCached: 0, tokensReasoning: 0, costUsd: 0 },
      strategy: 'hierarchical',
      summarizer: 'engine:lead',
    });
    // ?alpha= as `precis report --alpha`; a level outside (0, 1) is refused.
    expect((await get(`/api/v1/runs/${runId}/report?alpha=0.01`, stack.key)).body.sections[0].alpha).toBe(
      0.01,
    );
    const badAlpha = await get(`/api/v1/runs/${runId}/report?alpha=1.5`, stack.key);
    expect([badAlpha.status, badAlpha.body.error]).toEqual([
      400,
      'alpha: expected a number between 0 and 1 (both excluded), received "1.5"',
    ]);
    // gRPC's GetRunReport carries the same sections, whatever the format.
    const grpc = await answer<GetRunReportResponse>(authorized(stack.key), (md, o, cb) =>
      stack.runs.getRunReport({ runId, format: 'md', wide: false, alpha: 0.01 }, md, o, cb),
    );
    const [g] = grpc.value!.sections;
    expect([g!.key, g!.title, g!.label, g!.rankingMetric, g!.alpha, g!.documents]).toEqual([
      'booookscore.0',
      'BooookScore (coherence)',
      'booookscore.0',
      'booookscore.0',
      0.01,
      1,
    ]);
    expect([g!.rows[0]!.system, g!.rows[0]!.rank, g!.rows[0]!.rankLabel, g!.rows[0]!.score]).toEqual([
      'hier-lead',
      1,
      '1',
      100,
    ]);
    expect(JSON.parse(g!.rows[0]!.fieldsJson).strategy).toBe('hierarchical');
    const refused = await answer(authorized(stack.key), (md, o, cb) =>
      stack.runs.getRunReport({ runId, format: 'md', wide: false, alpha: 2 }, md, o, cb),
    );
    expect(refused).toEqual({
      code: 3,
      details: "alpha: expected a number in (0, 1) or 0 for the spec's, got 2",
    });
    const trace = await get(`/api/v1/runs/${runId}/traces/the-lighthouse-keeper.md`, stack.key);
    expect(trace.body.document.externalId).toBe('the-lighthouse-keeper.md');
    expect(
      trace.body.systems.map((s: { system: string; steps: unknown[] }) => [s.system, s.steps.length > 1]),
    ).toEqual([['hier-lead', true]]);
    const doc = 'the-lighthouse-keeper.md';
    const sideBySide = await get(`/api/v1/runs/${runId}/side-by-side/${doc}`, stack.key);
    expect([
      sideBySide.body.document.externalId,
      sideBySide.body.systems.map((s: { system: string }) => s.system),
    ]).toEqual([doc, ['hier-lead']]);
    // An offline run: no model calls, no models.
    const calls = await get(`/api/v1/runs/${runId}/traces/${doc}/calls?limit=5`, stack.key);
    expect([calls.body.total, calls.body.calls, calls.body.nextPageToken]).toEqual([0, [], '']);
    const facts = await get(`/api/v1/runs/${runId}/facts`, stack.key);
    expect([facts.body.spec.name, facts.body.models]).toEqual(['rest-quickstart', []]);
    const noDoc = await get(`/api/v1/runs/${runId}/traces/nope`, stack.key);
    expect([noDoc.status, noDoc.body.error]).toEqual([
      404,
      `run ${runId} has no document "nope"; give a document's external id, e.g. the-lighthouse-keeper.md`,
    ]);
    const missing = await get('/api/v1/runs/ffffffff/report', stack.key);
    expect([missing.status, missing.body.error]).toEqual([404, 'no run ffffffff (see `precis runs ls`)']);
    const datasets = await get('/api/v1/datasets', stack.key);
    expect(datasets.body.datasets.map((d: { name: string; kind: string }) => [d.name, d.kind])).toEqual([
      ['example-book', 'text'],
    ]);
  });

  it('gives `report`, `runs show` and `leaderboard` with --remote the text a local one has', async () => {
    const full = await loadFullRunReport(builtInFamilies, stack.db, await findRun(stack.db, runId));
    const env = { PRECIS_API_KEY: stack.key };
    for (const format of ['md', 'csv', 'json', 'html', 'text'] as const) {
      const r = await runCli(
        ['--remote', stack.address, 'report', runId.slice(0, 8), '--format', format],
        env,
      );
      expect([format, r.code, r.stdout]).toEqual([format, 0, renderRunReportAs(full, format)]);
    }
    const show = await runCli(['--remote', stack.address, 'runs', 'show', runId.slice(0, 8)], env);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`run:      ${runId}\nname:     rest-quickstart\nstatus:   completed`);
    expect(show.stdout).toMatch(/ {2}summarize +\d+ done, 0 failed, 0 open of \d+/);
    expect(show.stdout).toContain(renderRunReport(full, 'text'));
    const json = JSON.parse(
      (await runCli(['--remote', stack.address, 'runs', 'show', runId, '--json'], env)).stdout,
    );
    expect([json.run.id, json.tasks.score.done, json.sections[0].rows[0].system]).toEqual([
      runId,
      1,
      'hier-lead',
    ]);
    const board = await crossRunLeaderboard(stack.db, [runId]);
    const remoteBoard = await runCli(
      ['--remote', stack.address, 'leaderboard', '--runs', runId, '--format', 'json'],
      env,
    );
    expect(JSON.parse(remoteBoard.stdout)).toEqual(board);
    const remoteText = await runCli(['--remote', stack.address, 'leaderboard', '--runs', runId], env);
    expect(remoteText.stdout).toBe(renderBlocks('Leaderboard over 1 run(s)', crossRunBlocks(board), 'text'));
    const noMetric = await runCli(
      ['--remote', stack.address, 'leaderboard', '--runs', runId, '--metric', 'bleu'],
      env,
    );
    expect([noMetric.code, noMetric.stderr.trim()]).toEqual([
      1,
      'precis: error: metric "bleu" is not scored per document in every run; choose one of: booookscore.0',
    ]);
    const missing = await runCli(['--remote', stack.address, 'report', 'ffffffff'], env);
    expect([missing.code, missing.stderr.trim()]).toEqual([
      1,
      'precis: error: no run ffffffff (see `precis runs ls`)',
    ]);
  });

  it('gives `meta correlate` and `meta leaderboard` with --remote the text a local one has', async () => {
    await importDataset(stack.db, {
      kind: 'summeval-op',
      kinds: builtInFamilies.datasetKinds,
      path: resolve(repoRoot, '../shared/datasets/summeval-op/summeval-op.jsonl'),
      name: 'sop',
    });
    const local = { DATABASE_URL: stack.common.DATABASE_URL! };
    const remote = { PRECIS_API_KEY: stack.key };
    for (const args of [
      ['meta', 'correlate', '--dataset', 'sop', '--metric', 'rouge-1', '--ci', '20'],
      ['meta', 'correlate', '--dataset', 'sop', '--metric', 'rouge-l', '--level', 'system', '--json'],
      ['meta', 'leaderboard', '--dataset', 'sop', '--judge', 'rouge-2', '--format', 'md'],
    ]) {
      const mine = await runCli(args, local);
      const theirs = await runCli(['--remote', stack.address, ...args], remote);
      expect([args, mine.code, mine.stderr]).toEqual([args, 0, '']);
      expect([args, theirs.code, theirs.stdout, theirs.stderr]).toEqual([args, 0, mine.stdout, '']);
    }
    const missing = await runCli(
      ['--remote', stack.address, 'meta', 'leaderboard', '--dataset', 'nope'],
      remote,
    );
    const here = await runCli(['meta', 'leaderboard', '--dataset', 'nope'], local);
    expect([missing.code, here.code]).toEqual([1, 1]);
    expect(missing.stderr).toContain(here.stderr.replace('precis: error: ', '').trim());
  }, 120_000);

  it('ranks systems across runs over the API as precis leaderboard does', async () => {
    const board = await get(`/api/v1/leaderboard?runs=${runId.slice(0, 8)}`, stack.key);
    expect([board.status, board.body.metric, board.body.documents]).toEqual([200, 'booookscore.0', 1]);
    expect(
      board.body.entries.map((e: { system: string; rank: number; rankLabel: string }) => [
        e.system,
        e.rank,
        e.rankLabel,
      ]),
    ).toEqual([['hier-lead', 1, '1']]);
    const none = await get('/api/v1/leaderboard', stack.key);
    expect([none.status, none.body.error]).toEqual([400, 'runs: give run ids, comma-separated']);
    const unknown = await get(`/api/v1/leaderboard?runs=${runId}&metric=bleu`, stack.key);
    expect([unknown.status, unknown.body.error]).toEqual([
      400,
      'metric "bleu" is not scored per document in every run; choose one of: booookscore.0',
    ]);
  });

  it('imports a dataset through the ingestion service and shows it; a bad file names its line', async () => {
    const body = { kind: 'jsonl', path: resolve(repoRoot, 'examples/data/field-notes.jsonl'), name: 'notes' };
    const post = (b: unknown) =>
      get('/api/v1/datasets', stack.key, { method: 'POST', body: JSON.stringify(b) });
    const first = await post(body);
    expect([
      first.status,
      first.body.status,
      first.body.dataset.name,
      first.body.dataset.counts.documents,
    ]).toEqual([201, 'imported', 'notes', 3]);
    expect((await post(body)).body.status).toBe('unchanged');
    const show = await get('/api/v1/datasets/notes', stack.key);
    expect([show.status, show.body.dataset.kind]).toEqual([200, 'jsonl']);
    expect((await get('/api/v1/datasets/nope', stack.key)).status).toBe(404);
    const bad = await post({
      ...body,
      path: resolve(repoRoot, 'test/engine/fixtures/specs/bad-chunk-size.yaml'),
      name: 'bad',
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('bad-chunk-size.yaml: line 1: invalid JSON');
  });

  it('cancels only with a write key', async () => {
    const { key: readKey } = await createApiKey(stack.db, 'reader', 'read');
    const refused = await get(`/api/v1/runs/${runId}/cancel`, readKey, { method: 'POST', body: '{}' });
    expect([refused.status, refused.body.error]).toEqual([
      403,
      'API key reader has scope read; this call needs a write key (`precis keys create <name> --scope write`)',
    ]);
    const bad = await get(`/api/v1/runs/${runId}/cancel`, stack.key, { method: 'POST', body: '{"why":"x"}' });
    expect([bad.status, bad.body.error]).toEqual([400, 'Unrecognized key: "why"']);
    // A finished run stays as it was.
    const done = await get(`/api/v1/runs/${runId}/cancel`, stack.key, {
      method: 'POST',
      body: '{"reason":"test"}',
    });
    expect([done.status, done.body.run.status]).toEqual([200, 'completed']);
  });

  it('creates a run from a spec, cancels and deletes it; an invalid spec names the path', async () => {
    const spec = {
      name: 'rest-created',
      datasets: [{ name: 'example-book' }],
      systems: [{ name: 'lead', strategy: 'hierarchical', engine: 'lead' }],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    };
    const created = await get('/api/v1/runs', stack.key, { method: 'POST', body: JSON.stringify({ spec }) });
    expect([created.status, created.body.run.name, created.body.resumed]).toEqual([
      201,
      'rest-created',
      false,
    ]);
    const id = created.body.run.id as string;
    // No worker runs in this stack, so the run stays open: it must be cancelled before deleting.
    const open = await get(`/api/v1/runs/${id}`, stack.key, { method: 'DELETE' });
    expect(open.status).toBe(409);
    expect(open.body.error).toContain('cancel it first');
    const cancelled = await get(`/api/v1/runs/${id}/cancel`, stack.key, {
      method: 'POST',
      body: '{"reason":"test"}',
    });
    expect(cancelled.body.run.status).toBe('cancelled');
    expect(await get(`/api/v1/runs/${id}`, stack.key, { method: 'DELETE' })).toEqual({
      status: 200,
      body: { deleted: id },
    });
    expect((await get(`/api/v1/runs/${id}`, stack.key)).status).toBe(404);
    const bad = await get('/api/v1/runs', stack.key, {
      method: 'POST',
      body: JSON.stringify({ spec: { ...spec, systems: [{ name: 'x', strategy: 'hierarchical' }] } }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('systems[0]: give exactly one of "model"');
  });

  it("streams a run's progress as server-sent events until it reaches a final status", async () => {
    const events = (text: string) =>
      text
        .split('\n\n')
        .filter((b) => b.includes('data:'))
        .map((b) => ({
          event: /^event: (.*)$/m.exec(b)?.[1],
          data: JSON.parse(/^data: (.*)$/m.exec(b)![1]!) as { status: string; summaries: { done: number } },
        }))
        .map((e) => {
          expect([e.data, check.componentProblems('RunProgress', e.data)]).toEqual([e.data, []]);
          return e;
        });
    const auth = { authorization: `Bearer ${stack.key}` };
    // A finished run: one event with its final state, then the stream ends.
    const done = await fetch(`${base}/api/v1/runs/${runId}/events`, { headers: auth });
    expect(done.headers.get('content-type')).toContain('text/event-stream');
    expect(events(await done.text()).map((e) => [e.event, e.data.status, e.data.summaries.done])).toEqual([
      ['progress', 'completed', 1],
    ]);
    expect((await fetch(`${base}/api/v1/runs/${runId}/events`)).status).toBe(401);
    // An open run (no worker in this stack): events until it is cancelled.
    const spec = {
      name: 'rest-events',
      datasets: [{ name: 'example-book' }],
      systems: [{ name: 'lead', strategy: 'hierarchical', engine: 'lead' }],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    };
    const created = await get('/api/v1/runs', stack.key, {
      method: 'POST',
      body: JSON.stringify({ spec, fresh: true }),
    });
    const id = created.body.run.id as string;
    const res = await fetch(`${base}/api/v1/runs/${id}/events`, { headers: auth });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n\n')) text += new TextDecoder().decode((await reader.read()).value);
    expect(['pending', 'running']).toContain(events(text)[0]!.data.status);
    await get(`/api/v1/runs/${id}/cancel`, stack.key, { method: 'POST', body: '{}' });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read())
      text += new TextDecoder().decode(chunk.value);
    expect(events(text).at(-1)!.data.status).toBe('cancelled');
  });

  it('describes every route in its OpenAPI document, with the response schemas', async () => {
    const doc = (await get('/api/openapi.json')).body;
    expect(doc.openapi).toBe('3.1.0');
    // Valid against the OpenAPI 3.1 schema (the OpenAPI Initiative's JSON schema, by ajv).
    expect(await new Validator().validate(doc)).toEqual({ valid: true });
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/api/v1/datasets',
      '/api/v1/datasets/{name}',
      '/api/v1/leaderboard',
      '/api/v1/runs',
      '/api/v1/runs/{id}',
      '/api/v1/runs/{id}/cancel',
      '/api/v1/runs/{id}/events',
      '/api/v1/runs/{id}/facts',
      '/api/v1/runs/{id}/report',
      '/api/v1/runs/{id}/samples',
      '/api/v1/runs/{id}/side-by-side/{document}',
      '/api/v1/runs/{id}/traces/{document}',
      '/api/v1/runs/{id}/traces/{document}/calls',
      '/api/v1/runs/{id}/view',
    ]);
    const list = doc.paths['/api/v1/runs'].get.responses['200'].content['application/json'].schema;
    expect(list.properties.runs.items.required).toEqual(
      expect.arrayContaining(['id', 'name', 'status', 'taskCounts', 'costUsd']),
    );
    for (const path of Object.values(doc.paths) as Record<string, { responses: Record<string, unknown> }>[])
      for (const op of Object.values(path))
        expect(Object.keys(op.responses)).toEqual(
          expect.arrayContaining([expect.stringMatching(/^20[01]$/), '401']),
        );
    const create = doc.paths['/api/v1/runs'].post.responses['201'].content['application/json'].schema;
    expect(create.required).toEqual(['run', 'resumed']);
  });
  // The check bites: a field renamed in a mapper (toRunDto, say) is named with its path.
  it('fails an answer whose field was renamed, naming where', async () => {
    const show = await get(`/api/v1/runs/${runId}`, stack.key);
    const { costUsd, ...rest } = show.body.run as Record<string, unknown>;
    const renamed = { ...show.body, run: { ...rest, costUSD: costUsd } };
    expect(check.problems('GET', `/api/v1/runs/${runId}`, 200, renamed)).toEqual([
      "/run: must have required property 'costUsd'",
      "/run: must NOT have additional property 'costUSD'",
    ]);
  });

  it('checked the answer of every operation with a JSON body against the document', () => {
    expect(check.jsonOperations.filter((op) => !check.checked.has(op))).toEqual([]);
    expect(check.jsonOperations).toHaveLength(16);
  });
});
