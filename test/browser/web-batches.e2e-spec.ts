// Batch mode as a user follows it (issue 39), against `precis serve` and the fake server's Batch
// API: the run page says how many tasks wait for a provider batch while it is open, then lists
// the batch (provider id, status, requests answered) and what batches cost and saved;
// `precis runs show --remote` prints the same.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, loadRulesFile, startFakeLlmServer } from '@precis/testing';
import type { Browser, Page } from 'playwright-core';
import { runCli } from '../../apps/cli/test/run-cli.js';
import { repoRoot, tempDir, waitFor, writeJson } from '../e2e/runs-support.js';
import {
  api,
  enterKey,
  launchChromium,
  runEnded,
  SCREENSHOTS,
  type Served,
  startServe,
} from './serve-support.js';

type Batch = { providerBatchId: string; status: string; requests: number; completed: number; failed: number };
type RunDto = {
  id: string;
  status: string;
  usage: { calls: number; batch: { calls: number; costUsd: number; savedUsd: number; resent: number } };
  batches: { waitingTasks: number; queuedCalls: number; batches: Batch[] };
};

const DATA = 'data/product-reviews.summeval-op.jsonl';
// The example's 2 products x 3 rated summaries x 7 dimensions, one Op-I judge call each.
const CALLS = 2 * 3 * 7;

describe('batch mode on the run page and in runs show (Chromium)', () => {
  const scratch = tempDir('precis-web-batches-');
  let fake: FakeLlmServer;
  let served: Served;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    // Each batch phase (validating, in progress, finalizing) takes 1.5 s: long enough to see it wait.
    fake = await startFakeLlmServer({
      latencyMs: 1,
      capacity: 16,
      rules: loadRulesFile(resolve(repoRoot, 'examples/fake/opinion.rules.json')),
      batches: { delayMs: 1500 },
    });
    const judge = {
      baseURL: fake.baseURL,
      model: 'fake-judge',
      maxConcurrency: 16,
      pricePer1MInput: 1,
      pricePer1MOutput: 2,
      // Sent once no verify task is still on its way and 0.2 s passed without a park: one file,
      // however a loaded machine pauses between parks.
      batch: { pollSeconds: 0.2, gatherSeconds: 0.2 },
    };
    const models = writeJson(join(scratch.dir, 'models.json'), { models: { judge } });
    mkdirSync(join(scratch.dir, 'data'));
    copyFileSync(resolve(repoRoot, 'examples', DATA), join(scratch.dir, DATA));
    served = await startServe({ PRECIS_MODELS: models, INGEST_ROOT: scratch.dir });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await fake?.close();
    scratch.remove();
  });

  it('shows the tasks waiting, then the batch, its cost and its saving', async () => {
    const spec = {
      name: 'opinion-batched',
      seed: 7,
      datasets: [{ name: 'reviews', kind: 'summeval-op', path: DATA }],
      systems: [{ name: 'candidates', source: 'dataset' }],
      metrics: [{ name: 'dimensions', family: 'op-i', judge: { model: 'judge' } }],
      limits: { batch: ['verify'] },
    };
    const { run } = await api<{ run: RunDto }>(served, '/api/v1/runs', { spec });
    await page.goto(`${served.base}/#/runs/${run.id}`);
    await enterKey(page, served.key);
    // While the provider works on the batch (4.5 s), every verify task waits for it; the count
    // grows live as tasks park.
    const waiting = page.getByTestId('waiting');
    const all = `${CALLS} tasks waiting for provider batches`;
    await waitFor(
      'every task to wait',
      async () => (await waiting.textContent({ timeout: 60_000 })) === all,
      60_000,
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'batch-waiting.png') });

    // The page reloads the view itself when the run ends.
    const ended = await runEnded<RunDto>(served, run.id);
    expect(ended.status).toBe('completed');
    expect(ended.usage.batch).toMatchObject({ calls: CALLS, resent: 0 });
    expect(ended.usage.batch.savedUsd).toBeCloseTo(ended.usage.batch.costUsd, 9);
    const [batch] = ended.batches.batches;
    expect(ended.batches).toMatchObject({ waitingTasks: 0, queuedCalls: 0 });
    expect(batch).toMatchObject({ status: 'completed', requests: CALLS, completed: CALLS, failed: 0 });

    const table = page.getByTestId('batches');
    await table.locator('tbody tr').first().waitFor({ timeout: 30_000 });
    await page.getByTestId('usage-batches').waitFor({ timeout: 30_000 });
    const cells = await table.locator('tbody tr td').allTextContents();
    expect(cells.slice(0, 5)).toEqual([batch!.providerBatchId, 'completed', `${CALLS}`, `${CALLS}`, '0']);
    expect(await table.locator('p').textContent()).toBe(
      '0 tasks waiting, 0 calls gathering for the next batch',
    );
    const cost = ended.usage.batch.costUsd.toFixed(4);
    expect(await page.getByTestId('usage-batches').textContent()).toBe(
      `${CALLS} calls, $${cost} ($${cost} less than online)`,
    );
    expect(await waiting.count()).toBe(0);
    await page.screenshot({ path: join(SCREENSHOTS, 'batches.png'), fullPage: true });

    const show = await runCli(['--remote', served.grpcAddress, 'runs', 'show', run.id], {
      PRECIS_API_KEY: served.key,
    });
    expect(show.code).toBe(0);
    const lines = show.stdout.split('\n');
    expect(lines.find((l) => l.startsWith('usage:'))).toMatch(
      new RegExp(`; ${CALLS} through provider batches \\(\\$${cost}, \\$${cost} less than online\\)$`),
    );
    const at = lines.indexOf('batches:  0 tasks waiting, 0 calls gathering for the next batch');
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]!.replace(/\s+/g, ' ').replace(/took \d+s$/, 'took')).toBe(
      ` ${batch!.providerBatchId} completed ${CALLS} requests (${CALLS} answered, 0 failed), took`,
    );
  }, 180_000);
});
