// The samples table of KGDS and PerSphere runs in a real browser (Debian's Chromium) against
// `precis serve`: each run lists its per-summary values and a row opens its document.
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { repoRoot } from '../e2e/runs-support.js';
import {
  api,
  enterKey,
  launchChromium,
  runEnded,
  SCREENSHOTS,
  type Served,
  startServe,
} from './serve-support.js';

type RunDto = { id: string; status: string };
type SamplePage = { total: number; samples: { document: string; metric: string }[] };

// Named under the server's file root (the datasets directory, symlinks resolved).
const DATASETS = realpathSync(resolve(repoRoot, '../shared/datasets'));

const KGDS_SPEC = {
  name: 'web-kgds',
  datasets: [{ name: 'kgds', kind: 'kgds', path: 'kgds/KGDS.json', limit: 3 }],
  systems: [
    { name: 'gold', source: 'gold' },
    { name: 'lead-3', strategy: 'ebs-aos', engine: 'lead', params: { paragraphs: 3 } },
  ],
  metrics: [{ name: 'kgds', judge: { engine: 'lexical' } }],
};

const PERSPHERE_SPEC = {
  name: 'web-persphere',
  datasets: [
    {
      name: 'tp',
      kind: 'persphere',
      path: 'persphere/theperspective.queries.jsonl',
      corpus: 'persphere/theperspective.documents.jsonl',
      limit: 3,
    },
  ],
  systems: [{ name: 'bm25-lead', strategy: 'vanilla', engine: 'lead', params: { retriever: 'bm25', k: 10 } }],
  metrics: [{ name: 'persphere', judge: { engine: 'lexical' } }],
};

describe('per-summary values of KGDS and PerSphere runs on the web page (Chromium)', () => {
  let served: Served;
  let browser: Browser;
  let page: Page;

  const finished = async (spec: Record<string, unknown>) => {
    const { run } = await api<{ run: RunDto }>(served, '/api/v1/runs', { spec });
    return runEnded<RunDto>(served, run.id);
  };

  beforeAll(async () => {
    served = await startServe({ INGEST_ROOT: DATASETS });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(served.base);
    await enterKey(page, served.key);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
  });

  // The run page's samples: the count it states, the first row, then that row's document.
  async function openFirstSample(run: RunDto, screenshot: string) {
    const { total, samples } = await api<SamplePage>(served, `/api/v1/runs/${run.id}/samples?limit=1`);
    await page.goto(`${served.base}/#/runs/${run.id}`);
    const rows = page.getByTestId('sample-row');
    await rows.first().waitFor();
    expect(await page.locator('section.samples p.muted').textContent()).toBe(
      `${total} values; click a row to see its document.`,
    );
    const cells = await rows.first().locator('td').allTextContents();
    expect(cells.slice(0, 3)).toEqual([samples[0]!.document, expect.any(String), samples[0]!.metric]);
    await page.screenshot({ path: join(SCREENSHOTS, screenshot), fullPage: true });
    await rows.first().click();
    const trace = page.getByTestId('trace');
    await trace.waitFor();
    expect(await trace.locator('h1').textContent()).toContain(`Document ${samples[0]!.document}`);
    expect(page.url()).toMatch(/#\/runs\/[0-9a-f-]+\/documents\//);
    return total;
  }

  it("lists a KGDS run's BSP, CAO and OP_GM values per summary and opens a summary's document", async () => {
    const run = await finished(KGDS_SPEC);
    expect(run.status).toBe('completed');
    // Three samples, two EBS-AOS systems, six measures each.
    expect(await openFirstSample(run, 'kgds-samples.png')).toBe(3 * 2 * 6);
  }, 150_000);

  it("lists a PerSphere run's Recall@10, Cover@10, Rp@10 and Overall per query and opens a query", async () => {
    const run = await finished(PERSPHERE_SPEC);
    expect(run.status).toBe('completed');
    expect(await openFirstSample(run, 'persphere-samples.png')).toBe(3 * 4);
  }, 150_000);
});
