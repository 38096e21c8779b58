// The web leaderboard in a real browser (Debian's Chromium, playwright-core) against `precis
// serve`: key form, runs list, sortable leaderboard with charts, drill-down, live progress,
// comparison, and the HTML report file.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, parseRules, startFakeLlmServer } from '@precis/testing';
import type { Browser, Page } from 'playwright-core';
import { bookSpec, judgeRules, registryObject, repoRoot, tempDir, writeJson } from '../e2e/runs-support.js';
import { api, CLI, launchChromium, runEnded, SCREENSHOTS, type Served, startServe } from './serve-support.js';

type RunDto = { id: string; name: string; status: string };

// The model-backed book spec, its story named under this server's file root.
const lighthouseSpec = () =>
  bookSpec({ dataset: { name: 'lighthouse', kind: 'text', path: 'data/the-lighthouse-keeper.md' } });

// Markup that runs a script if a page or report ever inserts text as HTML: it counts in window.__xss.
const IMG = '<img src=x onerror="window.__xss=(window.__xss||0)+1">';
const SCRIPT = '</script><script>window.__xss=(window.__xss||0)+1</script>';

// Two documents whose ids and sentences carry the markup (so their summaries do too).
function hostileDocuments(): string {
  const text = (n: number) =>
    Array.from({ length: 6 }, (_, i) => `Sentence ${i} of ${n} says ${IMG} and ${SCRIPT} again.`).join(' ');
  return [1, 2].map((n) => JSON.stringify({ id: `doc-${n}-${IMG}`, text: text(n) })).join('\n');
}

describe('the web page (Chromium)', () => {
  const scratch = tempDir('precis-web-');
  let fake: FakeLlmServer;
  let served: Served;
  let browser: Browser;
  let page: Page;
  let quickstart: RunDto;

  const createRun = async (body: Record<string, unknown>) =>
    (await api<{ run: RunDto }>(served, '/api/v1/runs', body)).run;
  const finished = (id: string) => runEnded<RunDto>(served, id);

  beforeAll(async () => {
    // Slow enough that a model-backed run is seen in progress.
    fake = await startFakeLlmServer({ latencyMs: 150, capacity: 4, rules: parseRules(judgeRules()) });
    const models = writeJson(join(scratch.dir, 'models.json'), registryObject(fake.baseURL));
    // The examples' data and a dataset of hostile text, under one file root.
    mkdirSync(join(scratch.dir, 'data'));
    copyFileSync(
      resolve(repoRoot, 'examples/data/the-lighthouse-keeper.md'),
      join(scratch.dir, 'data/the-lighthouse-keeper.md'),
    );
    writeFileSync(join(scratch.dir, 'hostile.jsonl'), hostileDocuments());
    served = await startServe({ PRECIS_MODELS: models, INGEST_ROOT: scratch.dir });
    const specYaml = readFileSync(resolve(repoRoot, 'examples/quickstart.yaml'), 'utf8');
    quickstart = await finished((await createRun({ specYaml })).id);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await fake?.close();
    scratch.remove();
  });

  const systemsOf = (table: string) =>
    page.locator(`[data-testid="${table}"] tbody tr td:nth-child(2)`).allTextContents();

  it('asks for an API key, then lists the runs with their status', async () => {
    await page.goto(served.base);
    const form = page.getByTestId('key-form');
    await form.waitFor();
    expect(await form.textContent()).toContain('This server requires an API key');
    await form.locator('input').fill(served.key);
    await form.getByRole('button', { name: 'Use key' }).click();
    const row = page.getByTestId('run-row').filter({ hasText: 'quickstart-lighthouse' });
    await row.waitFor();
    expect(await row.getByTestId('status').textContent()).toBe('completed');
    await page.screenshot({ path: join(SCREENSHOTS, 'runs.png') });
  });

  it('shows a run: charts named by their judge, a sortable leaderboard, drill-down to a document', async () => {
    await page.getByRole('link', { name: 'quickstart-lighthouse' }).first().click();
    const figure = page.getByTestId('figure-BooookScore');
    await figure.waitFor();
    expect(await figure.locator('h3').textContent()).toBe(
      'BooookScore, judged by engine:heuristic-duplication@1 (heuristic)',
    );
    // CI whiskers, quality vs cost and error types: three SVG charts (drawn once laid out).
    await figure.locator('svg').nth(2).waitFor();
    const header = page.locator('[data-testid="table-booookscore.0"] th', { hasText: 'system' }).first();
    await header.click();
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    expect(await systemsOf('table-booookscore.0')).toEqual(['hier-lead', 'hier-textrank', 'inc-textrank']);
    await header.click();
    expect(await header.getAttribute('aria-sort')).toBe('descending');
    expect(await systemsOf('table-booookscore.0')).toEqual(['inc-textrank', 'hier-textrank', 'hier-lead']);
    // The leaderboard is titled for people, names what ranks it, and shows the internal id small;
    // one document cannot separate the three systems: each shares rank 1, and the note says why.
    const title = page.getByTestId('section-title-booookscore.0');
    expect(await title.textContent()).toBe('BooookScore (coherence) ranked by BooookScore booookscore.0');
    expect(await title.locator('small.block-label').textContent()).toBe('booookscore.0');
    const board = page.getByTestId('block-booookscore.0');
    expect(await board.locator('th').allTextContents()).toContain('BooookScore↕');
    expect(await board.locator('tbody tr td:nth-child(1)').allTextContents()).toEqual([
      '=1 tied',
      '=1 tied',
      '=1 tied',
    ]);
    expect(await board.locator('td strong.ranking').allTextContents()).toEqual(['100.0', '100.0', '100.0']);
    expect(await board.locator('p.note').allTextContents()).toContain(
      'Only 1 document: no system can be shown better (a paired test needs 5); all share rank 1.',
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'run.png'), fullPage: true });

    const samples = page.getByTestId('sample-row');
    await samples.first().waitFor();
    expect(await samples.count()).toBe(3);
    await samples.first().click();
    const trace = page.getByTestId('trace');
    await trace.waitFor();
    // Each summary's sentences as the BooookScore judge annotated them.
    const annotated = trace.locator('[data-testid="table-trace.hier-lead.booookscore.0"] tbody tr');
    expect(await annotated.count()).toBe(7);
    expect(await annotated.first().locator('td').nth(2).textContent()).toBe('coherent');
    expect(page.url()).toMatch(/#\/runs\/[0-9a-f-]+\/documents\//);
    await page.screenshot({ path: join(SCREENSHOTS, 'document.png'), fullPage: true });
  });

  it("follows a model-backed run's progress live until its leaderboard appears", async () => {
    const run = await createRun({ spec: lighthouseSpec() });
    await page.goto(`${served.base}/#/runs/${run.id}`);
    const progress = page.getByTestId('progress');
    await progress.waitFor();
    const early = (await progress.locator('.progress-text').textContent())!;
    const [done, expected] = /(\d+)\/(\d+) summaries/.exec(early)!.slice(1).map(Number);
    expect(expected).toBe(3);
    expect(done).toBeLessThan(3);
    await page.screenshot({ path: join(SCREENSHOTS, 'progress.png') });
    // The page reloads the view itself when the stream ends.
    await page.getByTestId('figure-BooookScore').waitFor({ timeout: 120_000 });
    expect(await systemsOf('table-booookscore.0')).toHaveLength(3);
    expect((await finished(run.id)).status).toBe('completed');
    // The run's model calls and tokens as the ledger has them (the fake reports no cached or
    // reasoning tokens).
    type Usage = { calls: number; cacheHits: number; tokensIn: number; tokensOut: number };
    const { run: ended } = await api<{ run: { usage: Usage } }>(served, `/api/v1/runs/${run.id}`);
    const u = ended.usage;
    expect(u.calls).toBeGreaterThan(0);
    expect([
      await page.getByTestId('usage-calls').textContent(),
      await page.getByTestId('usage-tokens').textContent(),
    ]).toEqual([`${u.calls} (${u.cacheHits} from cache)`, `${u.tokensIn} in, ${u.tokensOut} out`]);
  }, 150_000);

  it('compares runs, and shows the API error when a comparison is impossible', async () => {
    const again = await finished((await createRun({ spec: lighthouseSpec(), fresh: true })).id);
    await page.goto(served.base);
    await page.getByTestId('run-row').first().waitFor();
    for (const id of [quickstart.id, again.id])
      await page.locator(`[data-testid="run-row"][data-run-id="${id}"] input[type="checkbox"]`).check();
    await page.getByRole('button', { name: /Compare selected/ }).click();
    // The quickstart and the book spec share no scored document.
    const error = page.getByTestId('error');
    await error.waitFor();
    expect(await error.textContent()).toContain(
      "the runs' systems share no document scored by booookscore.0: compare runs on one dataset",
    );
    const model = (await api<{ runs: RunDto[] }>(served, '/api/v1/runs')).runs.filter(
      (r) => r.name === 'lighthouse-cluster',
    );
    await page.goto(`${served.base}/#/compare?runs=${model.map((r) => r.id).join(',')}`);
    const table = page.getByTestId('compare');
    await table.waitFor();
    expect(await table.locator('tbody tr').count()).toBe(6);
    await page.screenshot({ path: join(SCREENSHOTS, 'compare.png'), fullPage: true });
  }, 150_000);

  it('shows hostile document ids and summaries as text: no script runs on the page or in the report', async () => {
    const spec = {
      name: 'hostile-text',
      datasets: [{ name: 'hostile', kind: 'jsonl', path: 'hostile.jsonl' }],
      systems: [
        {
          name: 'lead',
          strategy: 'hierarchical',
          engine: 'lead',
          params: { chunkSize: 256, levelBudgets: [60, 120] },
        },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    };
    const run = await finished((await createRun({ spec })).id);
    expect(run.status).toBe('completed');
    await page.goto(`${served.base}/#/runs/${run.id}`);
    await page.getByTestId('figure-BooookScore').waitFor();
    const samples = page.getByTestId('sample-row');
    await samples.first().waitFor();
    expect(await samples.count()).toBe(2);
    expect(await samples.first().textContent()).toContain(`-${IMG}`);
    await samples.first().click();
    const trace = page.getByTestId('trace');
    await trace.waitFor();
    expect(await trace.textContent()).toContain(`says ${IMG} and ${SCRIPT} again.`);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    // The probe is live: the same markup inserted as HTML does run.
    await page.evaluate(`document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(IMG)})`);
    await page.waitForFunction('window.__xss === 1');

    const out = join(scratch.dir, 'hostile.html');
    const res = spawnSync(
      process.execPath,
      [CLI, '--remote', served.grpcAddress, 'report', run.id, '--format', 'html', '--out', out],
      { env: { ...process.env, PRECIS_API_KEY: served.key }, encoding: 'utf8' },
    );
    expect([res.status, res.stderr]).toEqual([0, `wrote ${out}\n`]);
    const file = await browser.newPage();
    await file.goto(`file://${out}`);
    await file.getByTestId('figure-BooookScore').locator('svg').first().waitFor();
    expect(await file.evaluate('window.__xss')).toBeUndefined();
    await file.close();
  }, 150_000);

  it('opens `precis report --format html` as one file with the same charts and no requests', async () => {
    const out = join(scratch.dir, 'report.html');
    const res = spawnSync(
      process.execPath,
      [CLI, '--remote', served.grpcAddress, 'report', quickstart.id, '--format', 'html', '--out', out],
      { env: { ...process.env, PRECIS_API_KEY: served.key }, encoding: 'utf8' },
    );
    expect([res.status, res.stderr]).toEqual([0, `wrote ${out}\n`]);
    const file = await browser.newPage();
    const requests: string[] = [];
    file.on('request', (r) => requests.push(r.url()));
    await file.goto(`file://${out}`);
    await file.getByTestId('figure-BooookScore').locator('svg').nth(2).waitFor();
    expect(await file.getByTestId('samples').count()).toBe(0);
    expect(requests).toEqual([`file://${out}`]);
    await file.close();
  });
});
