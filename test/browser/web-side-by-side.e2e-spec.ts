// A model-backed opinion run through the in-process fake (a model summarizer, an Op-I judge whose
// replies for some summaries never parse) on `precis serve`, in Debian's Chromium: the samples
// table filtered and sorted by the server, and a document's summaries side by side with scores.
import { copyFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, type FakeReplyContext, startFakeLlmServer } from '@precis/testing';
import type { Browser, Page } from 'playwright-core';
import { repoRoot, tempDir, writeJson } from '../e2e/runs-support.js';
import {
  api,
  enterKey,
  launchChromium,
  runEnded,
  SCREENSHOTS,
  type Served,
  startServe,
} from './serve-support.js';

type Sample = { document: string; documentId: string; system: string; metric: string; value: number | null };
type SamplePage = { total: number; samples: Sample[] };
type SideBySide = {
  document: { id: string; externalId: string };
  metrics: string[];
  systems: { system: string; summary: string | null; values: { metric: string; value: number | null }[] }[];
};

const WRITER_SUMMARY = 'Writer says: reviewers find it fast and sturdy, and some mention small flaws.';

// The judged summary and dimension, as the Op-I prompt lays them out.
const summaryIn = (prompt: string) =>
  /\nSummary\n([\s\S]*?)\n\n(?:How to evaluate|Follow the evaluation steps)/.exec(prompt)?.[1]?.trim() ?? '';

// Never parseable: the writer's fluency, and the generic candidate's coherence on the kettle.
function judgeReply(ctx: FakeReplyContext): string {
  const summary = summaryIn(ctx.lastUser);
  if (summary.startsWith('Writer says') && /Name: Fluency/.test(ctx.lastUser)) return 'It reads fine to me.';
  if (summary.startsWith('Customers love') && /Name: Coherence/.test(ctx.lastUser)) return 'Hard to say.';
  return `Reasonable.\n<score>${1 + (summary.length % 5)}</score>`;
}

const SPEC = {
  name: 'web-side-by-side',
  datasets: [{ name: 'reviews', kind: 'summeval-op', path: 'reviews.jsonl' }],
  systems: [
    { name: 'candidates', source: 'dataset' },
    { name: 'textrank', strategy: 'opinion', engine: 'textrank', params: { budgetWords: 30 } },
    { name: 'writer', strategy: 'opinion', model: 'writer', params: { budgetWords: 30 } },
  ],
  metrics: [
    {
      name: 'dimensions',
      family: 'op-i',
      dimensions: ['fluency', 'coherence'],
      judge: { model: 'judge' },
      samples: 1,
    },
  ],
};

describe('samples filtered and sorted on the server, and summaries side by side (Chromium)', () => {
  const scratch = tempDir('precis-sbs-');
  let fake: FakeLlmServer;
  let served: Served;
  let browser: Browser;
  let page: Page;
  let runId: string;

  beforeAll(async () => {
    fake = await startFakeLlmServer({
      latencyMs: 5,
      capacity: 16,
      rules: [
        { model: 'writer', reply: WRITER_SUMMARY },
        { match: /<score>/, reply: judgeReply },
      ],
    });
    const model = (name: string) => ({
      baseURL: fake.baseURL,
      model: name,
      contextWindow: 8192,
      maxConcurrency: 8,
    });
    const models = writeJson(join(scratch.dir, 'models.json'), {
      models: { writer: model('writer'), judge: model('judge') },
    });
    copyFileSync(
      resolve(repoRoot, 'examples/data/product-reviews.summeval-op.jsonl'),
      join(scratch.dir, 'reviews.jsonl'),
    );
    served = await startServe({ PRECIS_MODELS: models, INGEST_ROOT: scratch.dir });
    const { run } = await api<{ run: { id: string } }>(served, '/api/v1/runs', { spec: SPEC });
    runId = run.id;
    const ended = await runEnded<{ status: string }>(served, run.id);
    // Three judgments never parsed: the run says so.
    expect(ended.status).toBe('completed-with-failures');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(served.base);
    await enterKey(page, served.key);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await fake?.close();
    scratch.remove();
  });

  // The rendered rows as [document, system, metric, value], in table order.
  const tableRows = async () =>
    (await page.evaluate(
      `[...document.querySelectorAll('[data-testid="sample-row"]')].map((r) => [...r.querySelectorAll('td')].slice(0, 4).map((td) => td.textContent))`,
    )) as string[][];
  // The run page afresh (a new document: no filter or sort kept from a test before).
  const openRun = async () => {
    await page.goto('about:blank');
    await page.goto(`${served.base}/#/runs/${runId}`);
    await page.getByTestId('sample-row').first().waitFor();
  };
  const shown = (s: Sample) => [
    s.document,
    s.system,
    s.metric,
    s.value === null ? 'failed' : formatted(s.value),
  ];
  const formatted = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(4));

  it('filters the samples to exactly the failed ones, on the server', async () => {
    const all = await api<SamplePage>(served, `/api/v1/runs/${runId}/samples`);
    // Five systems (three candidates, TextRank, the writer), two products, two dimensions.
    expect(all.total).toBe(20);
    const failed = await api<SamplePage>(served, `/api/v1/runs/${runId}/samples?failed=true`);
    expect(failed.samples.map((s) => [s.system, s.metric, s.value])).toEqual([
      ['example-generic', 'dimension:coherence', null],
      ['writer', 'dimension:fluency', null],
      ['writer', 'dimension:fluency', null],
    ]);

    await openRun();
    expect(await page.getByTestId('samples-count').textContent()).toBe(
      '20 values; click a row to see its document.',
    );
    await page.getByTestId('filter-failed').selectOption('true');
    await page.waitForFunction(
      `document.querySelector('[data-testid="samples-count"]')?.textContent === '3 values match; click a row to see its document.'`,
    );
    await page.waitForFunction(`document.querySelectorAll('[data-testid="sample-row"]').length === 3`);
    expect(await tableRows()).toEqual(failed.samples.map(shown));
    await page.locator('section.samples').screenshot({ path: join(SCREENSHOTS, 'samples-failed.png') });

    // Narrowed to one system, then cleared.
    await page.getByTestId('filter-system').selectOption('writer');
    await page.waitForFunction(`document.querySelectorAll('[data-testid="sample-row"]').length === 2`);
    expect((await tableRows()).map((r) => r[1])).toEqual(['writer', 'writer']);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForFunction(`document.querySelectorAll('[data-testid="sample-row"]').length === 20`);
  }, 60_000);

  it('sorts the samples by value, highest first, failed ones last', async () => {
    const desc = await api<SamplePage>(served, `/api/v1/runs/${runId}/samples?sort=value&order=desc`);
    const values = desc.samples.map((s) => s.value);
    expect(values.slice(-3)).toEqual([null, null, null]);
    const scored = values.slice(0, -3) as number[];
    expect(scored).toEqual([...scored].sort((a, b) => b - a));

    await openRun();
    await page.getByTestId('sort-value').click();
    await page.waitForFunction(
      `document.querySelector('th[aria-sort="ascending"] [data-testid="sort-value"]') !== null`,
    );
    await page.getByTestId('sort-value').click();
    await page.waitForFunction(
      `document.querySelector('th[aria-sort="descending"] [data-testid="sort-value"]') !== null`,
    );
    await page.waitForFunction(
      `document.querySelector('[data-testid="sample-row"] td:nth-child(4)')?.textContent === ${JSON.stringify(shown(desc.samples[0]!)[3])}`,
    );
    expect(await tableRows()).toEqual(desc.samples.map(shown));
  }, 60_000);

  it("shows a document's summaries side by side, each with its scores above it", async () => {
    const { samples } = await api<SamplePage>(served, `/api/v1/runs/${runId}/samples?system=writer&limit=1`);
    const doc = samples[0]!;
    const expected = await api<SideBySide>(served, `/api/v1/runs/${runId}/side-by-side/${doc.documentId}`);
    expect(expected.systems.map((s) => s.system)).toEqual([
      'example-generic',
      'example-lead',
      'human-summaries',
      'textrank',
      'writer',
    ]);

    await openRun();
    const row = page.getByTestId('sample-row').filter({ hasText: 'writer' }).first();
    await row.waitFor();
    await row.getByTestId('side-by-side-link').click();
    const grid = page.getByTestId('sbs-grid');
    await grid.waitFor();
    expect(page.url()).toContain(`#/runs/${runId}/documents/${doc.documentId}/side-by-side`);
    const columns = (await page.evaluate(
      `[...document.querySelectorAll('.sbs-col')].map((c) => ({
        system: c.dataset.system,
        summary: c.querySelector('[data-testid="sbs-summary"]')?.textContent ?? null,
        scores: [...c.querySelectorAll('.sbs-scores tr')].map((tr) => [tr.dataset.metric, tr.querySelector('td').textContent]),
      }))`,
    )) as { system: string; summary: string | null; scores: string[][] }[];
    expect(columns).toEqual(
      expected.systems.map((s) => ({
        system: s.system,
        summary: s.summary,
        scores: expected.metrics.map((m) => {
          const v = s.values.find((x) => x.metric === m);
          return [m, v === undefined ? '–' : v.value === null ? 'failed' : formatted(v.value)];
        }),
      })),
    );
    const writer = columns.find((c) => c.system === 'writer')!;
    expect([writer.summary, writer.scores[1]]).toEqual([WRITER_SUMMARY, ['dimension:fluency', 'failed']]);
    // The summaries are text: a candidate's words are never read as markup.
    expect(await grid.locator('.sbs-summary script, .sbs-summary img').count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'side-by-side.png'), fullPage: true });

    // The document page links to the same view.
    await page.goto(`${served.base}/#/runs/${runId}/documents/${doc.documentId}`);
    await page.getByTestId('trace').waitFor();
    await page.getByTestId('side-by-side-link').click();
    await page.getByTestId('sbs-grid').waitFor();
    expect(await page.locator('.sbs-col').count()).toBe(5);
  }, 60_000);
});
