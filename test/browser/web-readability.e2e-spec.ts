// How the web page reads (Debian's Chromium against `precis serve`): chart ticks in plain digits,
// a book's steps in the order they ran under its final summaries, KGDS opinions without Markdown
// marks, and the HTML report's widest table inside a 1400 px window.
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { repoRoot, tempDir } from '../e2e/runs-support.js';
import {
  api,
  CLI,
  enterKey,
  launchChromium,
  runEnded,
  SCREENSHOTS,
  type Served,
  startServe,
} from './serve-support.js';

type RunDto = { id: string; status: string };

// Named under the server's file root (the datasets directory, symlinks resolved).
const DATASETS = realpathSync(resolve(repoRoot, '../shared/datasets'));

// examples/books.yaml's offline systems: Pride and Prejudice in 2048-token chunks (over 60).
const BOOKS_SPEC = {
  name: 'web-books',
  datasets: [{ name: 'pride', kind: 'text', path: 'books/pride-and-prejudice.txt' }],
  systems: [
    {
      name: 'hier-textrank',
      strategy: 'hierarchical',
      engine: 'textrank',
      params: { chunkSize: 2048, levelBudgets: [300, 500, 600] },
    },
    {
      name: 'inc-textrank',
      strategy: 'incremental',
      engine: 'textrank',
      params: { chunkSize: 2048, runningBudget: 600 },
    },
  ],
  metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
};

// The first KGDS discussion: its gold opinions mark names in bold (`**Philadelphia 76ers**`).
const KGDS_SPEC = {
  name: 'web-kgds-text',
  datasets: [{ name: 'kgds', kind: 'kgds', path: 'kgds/KGDS.json', limit: 1 }],
  systems: [
    { name: 'gold', source: 'gold' },
    { name: 'lead-3', strategy: 'ebs-aos', engine: 'lead', params: { paragraphs: 3 } },
  ],
  metrics: [{ name: 'kgds', judge: { engine: 'lexical' } }],
};

// Every tick label of the page's charts.
const TICKS = `[...document.querySelectorAll('.plot svg [aria-label$="tick label"] text')].map((t) => t.textContent)`;

describe('the web page reads well (Chromium)', () => {
  const scratch = tempDir('precis-readable-');
  let served: Served;
  let browser: Browser;
  let page: Page;
  let books: RunDto;
  let kgds: RunDto;

  const finished = async (spec: Record<string, unknown>) => {
    const { run } = await api<{ run: RunDto }>(served, '/api/v1/runs', { spec });
    return runEnded<RunDto>(served, run.id);
  };

  beforeAll(async () => {
    served = await startServe({ INGEST_ROOT: DATASETS });
    [books, kgds] = [await finished(BOOKS_SPEC), await finished(KGDS_SPEC)];
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(served.base);
    await enterKey(page, served.key);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    scratch.remove();
  });

  it.each([
    ['books', () => books, 'figure-BooookScore', 3],
    ['KGDS', () => kgds, 'figure-kgds.0.ebs-aos', 3],
  ])('labels the %s run page chart axes in plain digits', async (_name, run, figure, charts) => {
    expect(run().status).toBe('completed');
    await page.goto(`${served.base}/#/runs/${run().id}`);
    await page
      .getByTestId(figure)
      .locator('svg')
      .nth(charts - 1)
      .waitFor();
    const ticks = (await page.evaluate(TICKS)) as string[];
    expect(ticks.length).toBeGreaterThan(0);
    expect(ticks.filter((t) => /e[+-]\d/.test(t))).toEqual([]);
    expect(ticks).toContain('$0');
  });

  it("opens a book's document on its final summaries, the steps below collapsed in the order they ran", async () => {
    const { samples } = await api<{ samples: { documentId: string }[] }>(
      served,
      `/api/v1/runs/${books.id}/samples?limit=1`,
    );
    await page.goto(`${served.base}/#/runs/${books.id}/documents/${samples[0]!.documentId}`);
    const trace = page.getByTestId('trace');
    await trace.waitFor();
    const final = page.getByTestId('final-summary-hier-textrank');
    const steps = page.getByTestId('steps-hier-textrank');
    expect((await final.locator('.summary-text').textContent())!.length).toBeGreaterThan(500);
    // The final summary on the first screen, the steps after it and closed.
    const top = (sel: string) =>
      page.evaluate(`document.querySelector('${sel}').getBoundingClientRect().top`);
    expect(await top('[data-testid="final-summary-hier-textrank"]')).toBeLessThan(900);
    expect(await top('[data-testid="steps-hier-textrank"]')).toBeGreaterThan(
      (await top('[data-testid="final-summary-inc-textrank"]')) as number,
    );
    expect(await steps.getAttribute('open')).toBeNull();
    expect(await steps.locator('.step').first().isVisible()).toBe(false);
    await page.screenshot({ path: join(SCREENSHOTS, 'book-document.png'), fullPage: true });

    const keys = async (system: string) =>
      (await page.getByTestId(`steps-${system}`).locator('.step-head strong').allTextContents()).map(
        (label) => label.split(' ')[0],
      );
    const hier = await keys('hier-textrank');
    expect(hier.slice(0, 12)).toEqual(Array.from({ length: 12 }, (_, i) => `h/0/${i}`));
    expect(hier.indexOf('h/0/2')).toBeLessThan(hier.indexOf('h/0/10'));
    expect(hier.at(-1)).toBe('h/2/0');
    const inc = await keys('inc-textrank');
    expect(inc.slice(0, 12)).toEqual(['i/0', ...Array.from({ length: 11 }, (_, i) => `i/u/${i + 1}`)]);
    // The last step is the final summary.
    expect(await final.locator('.block-label').textContent()).toBe(`${hier.at(-1)} merge`);
    await steps.locator('summary').click();
    expect(await steps.locator('.step').first().isVisible()).toBe(true);
  });

  it('shows a KGDS opinion marked **bold** in Markdown as bold text, without the asterisks', async () => {
    await page.goto(`${served.base}/#/runs/${kgds.id}/documents/0`);
    const verdicts = page.getByTestId('table-trace.gold');
    await verdicts.waitFor();
    const item = verdicts.locator('tbody tr').first().locator('td').nth(2);
    expect(await item.textContent()).toBe(
      'Person1 feels that it is disappointing that the Philadelphia 76ers gave away 8 points to the New York Knicks in the final moments of the game.',
    );
    expect(await item.locator('strong').allTextContents()).toEqual(['Philadelphia 76ers', 'New York Knicks']);
    expect(await page.getByTestId('trace').textContent()).not.toContain('**');
  });

  it("fits the HTML report's widest table in a 1400 px window, its rank and system columns in view", async () => {
    const out = join(scratch.dir, 'kgds.html');
    const res = spawnSync(
      process.execPath,
      [CLI, '--remote', served.grpcAddress, 'report', kgds.id, '--format', 'html', '--out', out],
      { env: { ...process.env, PRECIS_API_KEY: served.key }, encoding: 'utf8' },
    );
    expect([res.status, res.stderr]).toEqual([0, `wrote ${out}\n`]);
    const file = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await file.goto(`file://${out}`);
    const table = file.getByTestId('table-kgds.0.ebs-aos');
    await table.waitFor();
    expect(await file.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1400);
    // Scrolled sideways inside its box, the table keeps its rank and system cells where they were.
    const cells = `[...document.querySelectorAll('[data-testid="table-kgds.0.ebs-aos"] tbody tr:first-child td')].slice(0, 3)`;
    const lefts = `${cells}.map((td) => Math.round(td.getBoundingClientRect().left))`;
    const before = (await file.evaluate(lefts)) as number[];
    await file.evaluate(`document.querySelector('.block .table-wrap').scrollLeft = 400`);
    const after = (await file.evaluate(lefts)) as number[];
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    expect(after[2]).toBeLessThan(before[2]!);
    expect(await file.evaluate(`${cells}[1].textContent`)).toBe('gold');
    await file.screenshot({ path: join(SCREENSHOTS, 'kgds-report.png'), fullPage: true });
    await file.close();
  });
});
