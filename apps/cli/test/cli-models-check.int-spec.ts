import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type FakeLlmServer, type FakeProviderProfile, startFakeLlmServer } from '@precis/testing';
import { assertBuilt, type CliRun, runCli } from './run-cli.js';

// Registry entries, each against a fake server with the profile of the provider it declares.
const ENTRIES: { name: string; profile: FakeProviderProfile; entry: Record<string, unknown> }[] = [
  { name: 'plain', profile: 'generic', entry: { model: 'fake-model' } },
  { name: 'gpt4o', profile: 'openai', entry: { provider: 'openai', model: 'gpt-4o-mini' } },
  { name: 'gpt5', profile: 'openai', entry: { provider: 'openai', model: 'gpt-5-mini' } },
  {
    name: 'azure-gpt5',
    profile: 'azure-openai',
    entry: {
      provider: 'azure-openai',
      model: 'gpt-5-mini',
      deployment: 'gpt-5-mini',
      apiVersion: '2024-10-21',
    },
  },
  { name: 'claude', profile: 'anthropic', entry: { provider: 'anthropic', model: 'claude-sonnet-4-5' } },
  { name: 'gemini', profile: 'gemini', entry: { provider: 'gemini', model: 'gemini-2.5-flash' } },
  { name: 'qwen-vllm', profile: 'vllm', entry: { provider: 'vllm', model: 'Qwen/Qwen3-8B' } },
  { name: 'qwen-ollama', profile: 'ollama', entry: { provider: 'ollama', model: 'qwen3:8b' } },
  {
    name: 'qwen-ollama-quiet',
    profile: 'ollama',
    entry: { provider: 'ollama', model: 'qwen3:8b', thinking: false },
  },
  { name: 'r1', profile: 'openrouter', entry: { provider: 'openrouter', model: 'deepseek/deepseek-r1' } },
];

const HEADER = 'CAPABILITY     DECLARED               OBSERVED               CHECK';
// The observed column of each entry's table, in row order: tokenParam, temperature, n,
// logprobs, seed, reasoningText.
const OBSERVED: Record<string, string[]> = {
  plain: ['both', '0 accepted', 'honoured', 'honoured', 'accepted', 'none seen'],
  gpt4o: ['both', '0 accepted', 'honoured', 'honoured', 'accepted', 'none seen'],
  gpt5: ['max_completion_tokens', '0 refused', 'honoured', 'refused', 'accepted', 'hidden'],
  'azure-gpt5': ['max_completion_tokens', '0 refused', 'honoured', 'refused', 'accepted', 'hidden'],
  claude: ['both', '0 accepted', 'refused', 'ignored', 'accepted', 'none seen'],
  gemini: ['both', '0 accepted', 'honoured', 'refused', 'accepted', 'hidden'],
  'qwen-vllm': ['both', '0 accepted', 'honoured', 'honoured', 'accepted', 'think-tags'],
  'qwen-ollama': ['both', '0 accepted', 'ignored', 'ignored', 'accepted', 'think-tags'],
  'qwen-ollama-quiet': ['both', '0 accepted', 'ignored', 'ignored', 'accepted', 'none seen'],
  r1: ['both', '0 accepted', 'ignored', 'honoured', 'accepted', 'field'],
};

// The block `precis models check` prints for one model, up to the blank line after it.
function blockOf(stdout: string, name: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`model ${name} (`));
  if (start < 0) throw new Error(`no block for ${name} in:\n${stdout}`);
  const end = lines.indexOf('', start);
  return lines.slice(start, end);
}

// The table rows as cells (columns are two or more spaces apart).
const rowsOf = (block: string[]) => block.slice(2, 8).map((l) => l.split(/ {2,}/));

describe('precis models check (built binary, fake provider profiles)', () => {
  let dir: string;
  const servers: FakeLlmServer[] = [];
  let checked: CliRun;

  const start = async (opts: Parameters<typeof startFakeLlmServer>[0]) => {
    const server = await startFakeLlmServer({ latencyMs: 1, ...opts });
    servers.push(server);
    return server;
  };
  const registry = async (file: string, models: Record<string, unknown>) => {
    await writeFile(join(dir, file), JSON.stringify({ models }));
    return join(dir, file);
  };
  const urlOf = (server: FakeLlmServer, profile: FakeProviderProfile) =>
    profile === 'azure-openai' ? server.url : server.baseURL;

  beforeAll(async () => {
    assertBuilt();
    dir = await mkdtemp(join(tmpdir(), 'precis-models-check-'));
    const models: Record<string, unknown> = {};
    for (const { name, profile, entry } of ENTRIES) {
      const server = await start({ profile });
      models[name] = { baseURL: urlOf(server, profile), ...entry };
    }
    checked = await runCli(['models', 'check', '--models', await registry('all.json', models)], {});
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('exits 0 when every model behaves as its registry entry declares', () => {
    expect(checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    expect(checked.stdout.trimEnd().split('\n').at(-1)).toBe(
      '10 models checked: 10 ok, 0 disagreeing with the registry, 0 unusable',
    );
  });

  it.each(ENTRIES.map((e) => [e.name, e.profile]))('%s (%s profile): the observed column', (name) => {
    const block = blockOf(checked.stdout, name);
    expect(block[0]).toMatch(
      new RegExp(`^model ${name} \\(.+\\) at http://127\\.0\\.0\\.1:\\d+\\S*: ok, 6 requests$`),
    );
    const rows = rowsOf(block);
    expect(rows.map((r) => r[0])).toEqual([
      'tokenParam',
      'temperature',
      'n',
      'logprobs',
      'seed',
      'reasoningText',
    ]);
    expect(rows.map((r) => r[2])).toEqual(OBSERVED[name]);
    expect(block).toContain('registry lines that would match it:');
  });

  it('prints the declared values and the check beside what was observed', () => {
    expect(blockOf(checked.stdout, 'gpt5').slice(1, 8)).toEqual([
      HEADER,
      'tokenParam     max_completion_tokens  max_completion_tokens  ok',
      'temperature    only 1                 0 refused              ok',
      'n              honoured               honoured               ok',
      'logprobs       refused                refused                ok',
      'seed           honoured               accepted               ok (either)',
      'reasoningText  hidden                 hidden                 ok',
    ]);
    expect(blockOf(checked.stdout, 'gpt5').slice(8)).toEqual([
      'notes:',
      "  tokenParam: HTTP 400: Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      "  temperature: HTTP 400: Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
      "  logprobs: HTTP 400: Unsupported parameter: 'logprobs' is not supported with this model.",
      '  seed: accepted: one reply cannot tell honoured from ignored',
      'registry lines that would match it:',
      '  provider: openai',
    ]);
    expect(rowsOf(blockOf(checked.stdout, 'claude')).map((r) => [r[1], r[3]])).toEqual([
      ['max_tokens', 'ok (either)'],
      ['0..1', 'ok'],
      ['refused', 'ok'],
      ['ignored', 'ok'],
      ['ignored', 'ok (either)'],
      ['hidden', 'ok (either)'],
    ]);
  });

  it('sends six tiny probes, the entry’s own fields with each', () => {
    const quiet = servers[ENTRIES.findIndex((e) => e.name === 'qwen-ollama-quiet')]!;
    const bodies = quiet.requests().map((r) => r.body as Record<string, unknown>);
    const fields = bodies.map((b) =>
      Object.keys(b).filter((k) => !['model', 'messages', 'reasoning_effort'].includes(k)),
    );
    expect(fields.map((f) => f.sort().join(' ')).sort()).toEqual([
      'logprobs max_tokens top_logprobs',
      'max_completion_tokens',
      'max_tokens',
      'max_tokens n',
      'max_tokens seed',
      'max_tokens temperature',
    ]);
    expect(bodies.every((b) => b.reasoning_effort === 'none')).toBe(true);
    expect(bodies.map((b) => b.max_tokens ?? b.max_completion_tokens).sort()).toEqual([
      16, 16, 16, 64, 64, 64,
    ]);
  });
});

describe('precis models check: disagreements, unusable models, usage errors (built binary)', () => {
  let dir: string;
  let ollama: FakeLlmServer;
  let locked: FakeLlmServer;

  beforeAll(async () => {
    assertBuilt();
    dir = await mkdtemp(join(tmpdir(), 'precis-models-misdeclared-'));
    ollama = await startFakeLlmServer({ profile: 'ollama', latencyMs: 1 });
    locked = await startFakeLlmServer({ apiKey: 'right-key', models: ['known'], rejectUnknownModels: true });
    const at = (server: FakeLlmServer, model: string, extra: object = {}) => ({
      baseURL: server.baseURL,
      model,
      retryBaseMs: 10,
      ...extra,
    });
    await writeFile(
      join(dir, 'models.json'),
      JSON.stringify({
        models: {
          'llama-as-generic': at(ollama, 'llama3.1'),
          'llama-as-ollama': at(ollama, 'llama3.1', { provider: 'ollama' }),
          keyless: at(locked, 'known', { apiKeyEnv: 'LOCKED_KEY' }),
          unknown: at(locked, 'nobody', { apiKeyEnv: 'LOCKED_KEY' }),
          embedder: at(ollama, 'nomic-embed-text', { kind: 'embedding' }),
          hung: at(ollama, 'hung-model', { timeoutMs: 300 }),
        },
      }),
    );
  });

  afterAll(async () => {
    await Promise.all([ollama?.close(), locked?.close()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const check = (args: string[], env: Record<string, string | undefined> = {}) =>
    runCli(['models', 'check', ...args], env, dir);

  it('exits 1 on a registry that misdeclares a provider, names the field, prints matching lines', async () => {
    const res = await check(['--models', 'models.json', '--model', 'llama-as-generic']);
    expect(res.code).toBe(1);
    const block = blockOf(res.stdout, 'llama-as-generic');
    expect(block[0]).toMatch(/^model llama-as-generic \(generic, llama3\.1\) at .+: MISMATCH, 6 requests$/);
    expect(rowsOf(block).filter((r) => r[3] === 'MISMATCH')).toEqual([
      ['n', 'honoured', 'ignored', 'MISMATCH'],
      ['logprobs', 'honoured', 'ignored', 'MISMATCH'],
    ]);
    expect(block.slice(-2)).toEqual(['registry lines that would match it:', '  provider: ollama']);
    expect(res.stdout.trimEnd().split('\n').at(-1)).toBe(
      '1 model checked: 0 ok, 1 disagreeing with the registry, 0 unusable',
    );
  });

  it('prints the same as JSON with --json, reading the registry from PRECIS_MODELS', async () => {
    const res = await check(['--json', '--model', 'llama-as-generic', '--model', 'llama-as-ollama'], {
      PRECIS_MODELS: 'models.json',
    });
    expect(res.code).toBe(1);
    const out = JSON.parse(res.stdout) as {
      ok: boolean;
      models: {
        model: string;
        status: string;
        rows: { capability: string; agrees: boolean }[];
        suggestion: unknown;
      }[];
    };
    expect(out.ok).toBe(false);
    expect(out.models.map((m) => [m.model, m.status])).toEqual([
      ['llama-as-generic', 'mismatch'],
      ['llama-as-ollama', 'ok'],
    ]);
    expect(out.models[0]!.rows.filter((r) => !r.agrees).map((r) => r.capability)).toEqual(['n', 'logprobs']);
    expect(out.models[0]!.suggestion).toEqual({
      provider: 'ollama',
      capabilities: {},
      yaml: 'provider: ollama\n',
    });
  });

  it('rides out 429s with their Retry-After, and counts the retries', async () => {
    ollama.injectFault({ kind: 'rate-limit', retryAfterMs: 50 }, 2, { model: 'llama3.1' });
    const res = await check(['--models', 'models.json', '--model', 'llama-as-ollama']);
    expect(res.code).toBe(0);
    expect(blockOf(res.stdout, 'llama-as-ollama')[0]).toMatch(/: ok, 8 requests$/);
  });

  it('reports a model without its key, with a wrong key or an unknown id as unusable (exit 1)', async () => {
    const unset = await check(['--models', 'models.json', '--model', 'keyless']);
    expect(unset.code).toBe(1);
    expect(blockOf(unset.stdout, 'keyless')).toEqual([
      `model keyless (generic, known) at ${locked.baseURL}: UNUSABLE, 0 requests`,
      `  model "keyless" needs an API key but the environment variable LOCKED_KEY is not set (apiKeyEnv in ${join(dir, 'models.json')}); set LOCKED_KEY, or remove apiKeyEnv for a server without auth`,
    ]);
    const wrong = await check(['--models', 'models.json', '--model', 'keyless'], {
      LOCKED_KEY: 'sk-wrong-0123456789',
    });
    expect(wrong.code).toBe(1);
    expect(blockOf(wrong.stdout, 'keyless')[1]).toBe(
      '  HTTP 401: Incorrect API key provided: Bearer [REDACTED]',
    );
    expect(wrong.stdout).not.toContain('sk-wrong');
    const unknown = await check(['--models', 'models.json', '--model', 'unknown'], {
      LOCKED_KEY: 'right-key',
    });
    expect(unknown.code).toBe(1);
    expect(blockOf(unknown.stdout, 'unknown')).toEqual([
      `model unknown (generic, nobody) at ${locked.baseURL}: UNUSABLE, 2 requests`,
      '  HTTP 404: The model `nobody` does not exist or you do not have access to it.',
    ]);
  });

  it('gives up on a model that does not answer within its timeoutMs, without retrying', async () => {
    ollama.injectFault({ kind: 'hang' }, 2, { model: 'hung-model' });
    const res = await check(['--models', 'models.json', '--model', 'hung']);
    expect(res.code).toBe(1);
    expect(blockOf(res.stdout, 'hung')).toEqual([
      `model hung (generic, hung-model) at ${ollama.baseURL}: UNUSABLE, 2 requests`,
      '  no answer within 300 ms (timeoutMs)',
    ]);
  });

  it('probes an embedding model once: ok, or refused (exit 1)', async () => {
    const ok = await check(['--models', 'models.json', '--model', 'embedder']);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    expect(blockOf(ok.stdout, 'embedder')).toEqual([
      `model embedder (embedding model, nomic-embed-text) at ${ollama.baseURL}: ok, 1 request`,
      'CAPABILITY  DECLARED   OBSERVED  CHECK',
      'embeddings  embedding  ok        ok',
    ]);
    ollama.injectFault({ kind: 'status', status: 400, message: 'model does not support embeddings' }, 1, {
      path: '/v1/embeddings',
    });
    const refused = await check(['--models', 'models.json', '--model', 'embedder']);
    expect(refused.code).toBe(1);
    expect(blockOf(refused.stdout, 'embedder').slice(2)).toEqual([
      'embeddings  embedding  refused   MISMATCH',
      'notes:',
      '  embeddings: HTTP 400: model does not support embeddings',
    ]);
  });

  it('exits 2 with one line on an unknown --model, no registry, or a broken one', async () => {
    const unknown = await check(['--models', 'models.json', '--model', 'gpt-7']);
    expect(unknown).toMatchObject({ code: 2, stdout: '' });
    expect(unknown.stderr).toBe(
      `precis: error: no model "gpt-7" in ${join(dir, 'models.json')} (it has: llama-as-generic, llama-as-ollama, keyless, unknown, embedder, hung)\n`,
    );
    const none = await check([]);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toBe(
      'precis: error: no model registry: pass --models <file>, set PRECIS_MODELS, or create ./precis.models.yaml\n',
    );
    await writeFile(join(dir, 'broken.json'), JSON.stringify({ models: { x: { model: 'x' } } }));
    const broken = await check(['--models', 'broken.json']);
    expect(broken.code).toBe(2);
    const [first, ...rest] = broken.stderr.trimEnd().split('\n');
    expect(first).toMatch(/^precis: error: invalid model registry \/.+\/broken\.json:$/);
    expect(rest).toEqual([expect.stringMatching(/broken\.json:1 models\.x\.baseURL: is required$/)]);
  });
});
