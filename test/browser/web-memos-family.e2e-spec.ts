// The page shows a family loaded with PRECIS_FAMILIES (test/fixtures/family-memos) like a shipped
// one: its leaderboard, ranked, with its notes, in a real browser (Debian's Chromium) against
// `precis serve` on the home an embedded run wrote.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, loadRulesFile, startFakeLlmServer } from '@precis/testing';
import type { Browser, Page } from 'playwright-core';
import { runCli } from '../../apps/cli/test/run-cli.js';
import { buildMemosFamily, MEMOS, MEMOS_MODULE, memosModels } from '../e2e/memos-support.js';
import { tempDir, writeJson } from '../e2e/runs-support.js';
import { enterKey, launchChromium, SCREENSHOTS, type Served, startServe } from './serve-support.js';

describe('a family from PRECIS_FAMILIES on the page (Chromium)', () => {
  const scratch = tempDir('precis-web-memos-');
  const home = join(scratch.dir, 'home');
  let fake: FakeLlmServer;
  let served: Served;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    buildMemosFamily();
    fake = await startFakeLlmServer({
      latencyMs: 1,
      capacity: 16,
      rules: loadRulesFile(join(MEMOS, 'fake/memos.rules.json')),
    });
    const models = writeJson(join(scratch.dir, 'models.json'), memosModels(fake.baseURL));
    const env = { PRECIS_HOME: home, PRECIS_FAMILIES: MEMOS_MODULE };
    for (const args of [
      ['ingest', 'memo', 'data/office.memo', '--dataset', 'office'],
      ['run', 'memos.yaml', '--models', models],
    ]) {
      const r = await runCli(args, env, MEMOS);
      if (r.code !== 0) throw new Error(`precis ${args.join(' ')}: exit ${r.code}: ${r.stderr}`);
    }
    served = await startServe({ PRECIS_FAMILIES: MEMOS_MODULE, PRECIS_MODELS: models }, { home });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await fake?.close();
    scratch.remove();
  });

  it("shows the family's leaderboard, ranked, with what produced it", async () => {
    await page.goto(served.base);
    await enterKey(page, served.key);
    await page.getByRole('link', { name: 'memo-headlines' }).first().click();
    const board = page.getByTestId('block-memos.keyword-recall');
    await board.waitFor();
    expect(await page.getByTestId('section-title-memos.keyword-recall').textContent()).toBe(
      'Memo headlines: keyword recall ranked by recall % keyword-recall',
    );
    const cells = (n: number) => board.locator(`tbody tr td:nth-child(${n})`).allTextContents();
    expect(await cells(1)).toEqual(['1', '2', '3']);
    expect(await cells(2)).toEqual(['lead-20', 'lead-8', 'writer']);
    expect(await board.locator('td strong.ranking').allTextContents()).toEqual(['88.9', '66.7', '44.4']);
    expect((await board.locator('p.note').allTextContents())[0]).toContain(
      'matched by engine:keyword-match (no model)',
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'memos-family.png'), fullPage: true });
  }, 60_000);
});
