import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, startFakeLlmServer } from '@precis/testing';
import { assertBuilt, DATASETS, REPO_ROOT, runCli } from './run-cli.js';

const STORY = resolve(REPO_ROOT, 'examples/data/the-lighthouse-keeper.md');
const NOTHING_CREATED = '(no run was created or resumed)';

// What a spec asks of a model that its registry entry says it cannot do is refused before any
// request, even the preflight's, and before the run exists: exit 1, one line per problem.
describe('precis run: the models are checked for what the spec asks of them (built binary)', () => {
  let dir: string;
  let fake: FakeLlmServer;

  beforeAll(async () => {
    assertBuilt();
    dir = await mkdtemp(join(tmpdir(), 'precis-capabilities-'));
    fake = await startFakeLlmServer({
      latencyMs: 1,
      rules: [
        // The BooookScore judge: every sentence of a batch is clear.
        {
          match: /Target sentences/,
          reply: (ctx) => {
            const numbers = [...ctx.lastUser.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
            return JSON.stringify(Object.fromEntries(numbers.map((n) => [n, { confusing: false }])));
          },
        },
        { match: /./, reply: 'Mara keeps the light. A storm comes. She saves a boat.' },
      ],
    });
    const entry = (provider: string, model: string) => ({
      baseURL: fake.baseURL,
      provider,
      model,
      contextWindow: 8192,
    });
    await writeFile(
      join(dir, 'models.json'),
      JSON.stringify({
        models: { gpt5: entry('openai', 'gpt-5-mini'), claude: entry('anthropic', 'claude-sonnet-4-5') },
      }),
    );
  });

  afterAll(async () => {
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  let homes = 0;
  const run = (file: string, ...flags: string[]) =>
    runCli(['run', file, ...flags], { PRECIS_HOME: join(dir, `home-${++homes}`) });

  async function specFile(name: string, body: object): Promise<string> {
    const file = join(dir, `${name}.json`);
    await writeFile(file, JSON.stringify({ name, models: 'models.json', cache: false, ...body }));
    return file;
  }

  const books = (name: string, system: object, ...judges: object[]) =>
    specFile(name, {
      datasets: [{ name: 'story', kind: 'text', path: STORY }],
      systems: [{ name: 'inc', strategy: 'incremental', params: { chunkSize: 120 }, ...system }],
      metrics: judges.map((judge) => ({ name: 'booookscore', judge })),
    });

  it('a logprob dimensions judge on an anthropic model: exit 1, one line, no request sent', async () => {
    const file = await specFile('logprobs', {
      datasets: [
        {
          name: 'opinions',
          kind: 'summeval-op',
          path: join(DATASETS, 'summeval-op/summeval-op.jsonl'),
          limit: 1,
        },
      ],
      systems: [{ name: 'lead', strategy: 'opinion', engine: 'lead' }],
      metrics: [{ name: 'dimensions', family: 'op-i', judge: { model: 'claude' }, logprobs: true }],
    });
    const before = fake.stats().total;
    expect(await run(file)).toEqual({
      code: 1,
      stdout: '',
      stderr: `precis: error: metrics[0] (dimensions judge, logprobs: true): model "claude" (anthropic, claude-sonnet-4-5) returns no logprobs (its provider ignores them); set metrics[0].logprobs: false (score = mean of the parsed samples) or judge with a model whose provider returns logprobs ${NOTHING_CREATED}\n`,
    });
    expect(fake.stats().total).toBe(before);
  });

  it('a BooookScore judge at temperature 0 on gpt-5-mini: exit 1 with or without --no-preflight, no request', async () => {
    const file = await books('judge-t0', { engine: 'textrank' }, { model: 'gpt5' });
    const before = fake.stats().total;
    const refusal = `precis: error: metrics[0] (booookscore judge): model "gpt5" (openai, gpt-5-mini) takes only temperature 1, but the judge asks for temperature 0; set metrics[0].judge.temperature: 1 (the judge then samples at 1) or judge with another model ${NOTHING_CREATED}\n`;
    expect(await run(file)).toEqual({ code: 1, stdout: '', stderr: refusal });
    expect(await run(file, '--no-preflight')).toEqual({ code: 1, stdout: '', stderr: refusal });
    expect(fake.stats().total).toBe(before);
  });

  it('several problems: one line each under one header', async () => {
    const file = await books(
      'judge-both',
      { model: 'claude' },
      { model: 'gpt5', temperature: 0.2 },
      { model: 'claude', temperature: 1.5 },
    );
    const res = await run(file);
    expect(res.code).toBe(1);
    expect(res.stderr.split('\n')).toEqual([
      `precis: error: the spec asks its models for 2 things they cannot do ${NOTHING_CREATED}:`,
      '  metrics[0] (booookscore judge): model "gpt5" (openai, gpt-5-mini) takes only temperature 1, but the judge asks for temperature 0.2; set metrics[0].judge.temperature: 1 (the judge then samples at 1) or judge with another model',
      '  metrics[1] (booookscore judge): model "claude" (anthropic, claude-sonnet-4-5) takes temperature 0..1, but the judge asks for temperature 1.5; set metrics[1].judge.temperature: 1 (the judge then samples at 1) or judge with another model',
      '',
    ]);
  });

  it('the judge at temperature 1 and a system at 0.5 on gpt-5-mini pass, and the run completes', async () => {
    const file = await books(
      'judge-t1',
      { model: 'gpt5', params: { chunkSize: 120, temperature: 0.5 } },
      { model: 'gpt5', temperature: 1 },
    );
    const seq = fake.stats().total;
    const res = await run(file);
    expect(res.stderr).not.toContain('precis: error');
    expect(res.code).toBe(0);
    const chats = fake
      .requests()
      .filter((r) => r.seq >= seq && r.path === '/v1/chat/completions')
      .map((r) => r.body as Record<string, unknown>);
    const judged = chats.filter((b) => JSON.stringify(b.messages).includes('Target sentences'));
    const summarized = chats.filter((b) => !judged.includes(b) && b.max_completion_tokens !== 1);
    expect(judged.length).toBeGreaterThan(0);
    expect(summarized.length).toBeGreaterThan(0);
    // The summarizer is sampled at the model's own temperature; the judge's 1 is sent as asked.
    expect(judged.map((b) => b.temperature)).toEqual(judged.map(() => 1));
    expect(summarized.filter((b) => 'temperature' in b || 'top_p' in b)).toEqual([]);
  });
});
