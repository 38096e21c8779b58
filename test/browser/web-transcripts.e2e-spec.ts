// Transcripts and a run's own facts in a real browser (Debian's Chromium) against `precis serve`:
// a model-backed book run through the in-process fake (a vLLM-like endpoint whose thinking judge
// writes <think> blocks); the document page shows each call's prompt, reasoning and reply, the
// run page its spec, model entries without secrets, templates with versions and the seed.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, parseRules, startFakeLlmServer } from '@precis/testing';
import type { Browser, Locator, Page } from 'playwright-core';
import { FIXED_SUMMARY, judgeRules, repoRoot, tempDir, writeJson } from '../e2e/runs-support.js';
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

const DOC = 'the-lighthouse-keeper.md';
const SECRET = 'sk-webtranscripts-0123456789abcdefghij';
const CHUNK_LINE =
  'Below is one part of a longer story. Summarize this part in at most 60 words. Cover the key events, the characters involved and their motivations, and the setting. Write plain prose; do not mention that this is a part or a summary.';
const VERDICT_1_2 = JSON.stringify({
  1: { confusing: false },
  2: { confusing: true, questions: ['Who is meant in sentence 2?'], types: ['entity omission'] },
});

function registry(baseURL: string) {
  const common = { baseURL, provider: 'vllm', contextWindow: 8192, maxConcurrency: 8 };
  return {
    models: {
      'fake-model': { ...common, model: 'fake-model', pricePer1MInput: 1, pricePer1MOutput: 2 },
      'fake-thinker': { ...common, model: 'qwen3-fake', apiKeyEnv: 'FAKE_THINKER_KEY', pricePer1MInput: 3 },
    },
  };
}

const SPEC = {
  name: 'web-transcripts',
  datasets: [{ name: 'lighthouse', kind: 'text', path: `data/${DOC}` }],
  systems: [
    {
      name: 'hier-fake',
      strategy: 'hierarchical',
      model: 'fake-model',
      params: { chunkSize: 200, levelBudgets: [60, 120] },
    },
  ],
  metrics: [{ name: 'booookscore', judge: { model: 'fake-thinker' }, mode: 'batched', batchSize: 2 }],
  templateOverrides: { 'book.merge': { user: 'Merge into {{budget}} words:\n{{summaries}}' } },
  seed: 7,
};

describe('transcripts and run facts on the web page (Chromium)', () => {
  const scratch = tempDir('precis-web-transcripts-');
  let fake: FakeLlmServer;
  let served: Served;
  let browser: Browser;
  let page: Page;
  let run: RunDto;

  beforeAll(async () => {
    fake = await startFakeLlmServer({
      latencyMs: 1,
      capacity: 16,
      profile: 'vllm',
      rules: parseRules(judgeRules()),
    });
    const models = writeJson(join(scratch.dir, 'models.json'), registry(fake.baseURL));
    mkdirSync(join(scratch.dir, 'data'));
    copyFileSync(resolve(repoRoot, `examples/data/${DOC}`), join(scratch.dir, 'data', DOC));
    served = await startServe({ PRECIS_MODELS: models, INGEST_ROOT: scratch.dir, FAKE_THINKER_KEY: SECRET });
    const created = (await api<{ run: RunDto }>(served, '/api/v1/runs', { spec: SPEC })).run;
    run = await runEnded<RunDto>(served, created.id);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(served.base);
    await enterKey(page, served.key);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await served?.stop();
    await fake?.close();
    scratch.remove();
  });

  // The full text of a (possibly collapsed) prompt or reply, opened first when collapsed.
  async function fullText(text: Locator): Promise<string> {
    const body = text.locator('.text-body');
    if (!(await body.isVisible())) await text.locator('summary').click();
    expect(await body.isVisible()).toBe(true);
    return (await body.textContent()) ?? '';
  }

  it("the document page shows a summary step's and a judge call's prompts and raw replies", async () => {
    expect(run.status).toBe('completed');
    await page.goto(`${served.base}/#/runs/${run.id}/documents/${DOC}`);
    const transcript = page.getByTestId('transcript-hier-fake');
    await transcript.locator('summary').first().click();
    await transcript.getByTestId('calls-total').waitFor();
    const calls = transcript.getByTestId('call');
    const { total } = await api<{ total: number }>(
      served,
      `/api/v1/runs/${run.id}/traces/${DOC}/calls?limit=1`,
    );
    expect(await transcript.getByTestId('calls-total').textContent()).toBe(
      `${total} model calls, in the order they were made`,
    );
    expect(await calls.count()).toBe(Math.min(total, 20));

    // The first step: one chunk of the story summarized by the plain model.
    const chunk = calls.first();
    expect(await chunk.getAttribute('data-stage')).toBe('summarize');
    expect(await chunk.getByTestId('call-model').textContent()).toBe('fake-model (fake-model)');
    const user = chunk.locator('[data-testid="call-message"][data-label="user"]');
    expect((await fullText(user)).split('\n')[0]).toBe(CHUNK_LINE);
    expect(await fullText(chunk.getByTestId('call-reply'))).toBe(FIXED_SUMMARY);
    expect(await chunk.getByTestId('call-reasoning').count()).toBe(0);

    // The merge step went out with the spec's override, under its own version.
    const merge = calls.filter({ hasText: 'Merge into 120 words:' }).first();
    expect(await merge.locator('.call-facts').textContent()).toMatch(/template1\+override\.[0-9a-f]{10}/);

    // The judge: a thinking model whose reasoning is shown apart from its answer.
    const judge = transcript.locator('[data-testid="call"][data-stage="verify"]').first();
    expect(await judge.getByTestId('call-model').textContent()).toBe('fake-thinker (qwen3-fake)');
    const prompt = await fullText(judge.locator('[data-testid="call-message"][data-label="user"]'));
    expect(prompt).toContain('Target sentences (numbered as in the summary):\n[1] ');
    expect(await fullText(judge.getByTestId('call-reasoning'))).toMatch(/^The user wants a reply to "/);
    expect(await fullText(judge.getByTestId('call-reply'))).toBe(VERDICT_1_2);
    await judge.locator('.call-raw summary').click();
    const raw = JSON.parse((await judge.getByTestId('call-raw').textContent()) ?? '');
    expect(raw.response.choices[0].message.content).toMatch(
      /^<think>\nThe user wants a reply to "[\s\S]*<\/think>\n\n\{"1"/,
    );
    // Then the verdicts on the summary.
    expect(await transcript.locator('h4').textContent()).toBe('Verdicts');
    expect(await page.content()).not.toContain(SECRET);
    await page.screenshot({ path: join(SCREENSHOTS, 'document-transcript.png'), fullPage: true });
  }, 60_000);

  it('the run page shows the spec, the model entries without secrets, templates with versions, the seed', async () => {
    await page.goto(`${served.base}/#/runs/${run.id}`);
    const facts = page.getByTestId('run-facts');
    await facts.getByTestId('run-seed').waitFor();
    expect(await facts.getByTestId('run-seed').textContent()).toBe('7');
    await facts.getByTestId('run-spec').locator('summary').click();
    const spec = JSON.parse((await facts.getByTestId('run-spec').locator('pre').textContent()) ?? '');
    expect([spec.name, spec.seed, spec.systems[0].model, spec.metrics[0].judge.model]).toEqual([
      'web-transcripts',
      7,
      'fake-model',
      'fake-thinker',
    ]);
    const models = facts.getByTestId('run-models').locator('tbody tr');
    expect(await models.nth(1).locator('td').allTextContents()).toEqual([
      'fake-thinker',
      'vllm',
      'qwen3-fake',
      fake.baseURL,
      'FAKE_THINKER_KEY',
      '8192',
      '3 / 0 / 3',
      expect.stringMatching(/^8 at once, timeout \d+ ms, \d+ retries, \d+ max tokens$/),
      expect.stringMatching(/^\d+ \(qwen3-fake\)$/),
      'metrics[0].judge.model',
    ]);
    const templates = facts.getByTestId('run-templates').locator('tbody tr');
    const rows: string[][] = [];
    for (let i = 0; i < (await templates.count()); i++)
      rows.push(await templates.nth(i).locator('td').allTextContents());
    expect(rows).toEqual(
      expect.arrayContaining([
        ['book.chunk-summary', 'books', '1', 'built in', expect.any(String)],
        [
          'book.merge',
          'books',
          expect.stringMatching(/^1\+override\.[0-9a-f]{10}$/),
          'overridden by the spec',
          expect.any(String),
        ],
        ['booookscore.annotate-batch', 'books', '1', 'built in', expect.any(String)],
      ]),
    );
    expect(await page.content()).not.toContain(SECRET);
    await page.screenshot({ path: join(SCREENSHOTS, 'run-facts.png'), fullPage: true });
  }, 60_000);
});
