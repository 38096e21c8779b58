// The runs list in a real browser (Debian's Chromium, playwright-core) against `precis serve`:
// each row shows the run's own task counts, spent cost, datasets and best score, as GET of the
// run gives them. A model-backed book run (fake LLM server) and the offline quickstart.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, parseRules, startFakeLlmServer } from '@precis/testing';
import type { Browser, Page } from 'playwright-core';
import { bookSpec, judgeRules, registryObject, repoRoot, tempDir, writeJson } from '../e2e/runs-support.js';
import {
  api,
  enterKey,
  launchChromium,
  runEnded,
  SCREENSHOTS,
  type Served,
  startServe,
} from './serve-support.js';

type RunDto = {
  id: string;
  name: string;
  status: string;
  taskCounts: Record<string, number>;
  costUsd: number;
  reservedUsd: number;
  datasets: string[];
  headline: { metric: string; system: string; score: number } | null;
};

describe('the runs list (Chromium)', () => {
  const scratch = tempDir('precis-web-runs-');
  let fake: FakeLlmServer;
  let served: Served;
  let browser: Browser;
  let page: Page;
  let booked: RunDto;
  let quickstart: RunDto;

  const finished = (id: string) => runEnded<RunDto>(served, id);
  const start = async (body: Record<string, unknown>) =>
    finished((await api<{ run: RunDto }>(served, '/api/v1/runs', body)).run.id);

  beforeAll(async () => {
    fake = await startFakeLlmServer({ latencyMs: 1, capacity: 16, rules: parseRules(judgeRules()) });
    const models = writeJson(join(scratch.dir, 'models.json'), registryObject(fake.baseURL));
    mkdirSync(join(scratch.dir, 'data'));
    copyFileSync(
      resolve(repoRoot, 'examples/data/the-lighthouse-keeper.md'),
      join(scratch.dir, 'data/the-lighthouse-keeper.md'),
    );
    served = await startServe({ PRECIS_MODELS: models, INGEST_ROOT: scratch.dir });
    const dataset = { name: 'lighthouse', kind: 'text', path: 'data/the-lighthouse-keeper.md' };
    booked = await start({ spec: bookSpec({ name: 'listed-book', dataset }) });
    quickstart = await start({
      specYaml: readFileSync(resolve(repoRoot, 'examples/quickstart.yaml'), 'utf8'),
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await fake?.close();
    scratch.remove();
  });

  // What a row shows, cell by cell.
  async function shown(run: RunDto) {
    const row = page.locator(`[data-testid="run-row"][data-run-id="${run.id}"]`);
    await row.waitFor();
    const cell = async (id: string) => ((await row.getByTestId(id).textContent()) ?? '').replace(/\s+/g, ' ');
    return {
      tasks: await cell('run-tasks'),
      cost: await cell('run-cost'),
      datasets: await cell('run-datasets'),
      best: await cell('run-best'),
    };
  }

  it("shows each run's task counts, cost, datasets and best score, as the run itself has them", async () => {
    await page.goto(served.base);
    await enterKey(page, served.key);
    const own = booked.taskCounts;
    expect(own.done).toBeGreaterThan(10);
    expect(booked.costUsd).toBeGreaterThan(0);
    expect(await shown(booked)).toEqual({
      tasks: `${own.done} / ${own.failed} / ${own.open}`,
      cost: `$${booked.costUsd.toFixed(4)}`,
      datasets: 'lighthouse',
      best: '75.0 hier-fake (rank =1 with 2 others)BooookScore',
    });
    expect([own.failed, own.open, booked.reservedUsd]).toEqual([0, 0, 0]);
    // The offline quickstart: its tasks, no model call, every system at 100.
    const q = quickstart.taskCounts;
    expect(await shown(quickstart)).toEqual({
      tasks: `${q.done} / 0 / 0`,
      cost: '$0.00',
      datasets: 'example-book',
      // Three systems tied at 100: the best named is one of three sharing rank =1.
      best: `100.0 ${quickstart.headline!.system} (rank =1 with 2 others)BooookScore`,
    });
    await page.screenshot({ path: join(SCREENSHOTS, 'runs-list.png') });
  });
});
