import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import OpenAI from 'openai';
import { type FakeLlmServer, startFakeLlmServer } from '../../src/index.js';

const servers: FakeLlmServer[] = [];
async function start(opts: Parameters<typeof startFakeLlmServer>[0] = {}) {
  const s = await startFakeLlmServer(opts);
  servers.push(s);
  return { server: s, sdk: new OpenAI({ baseURL: s.baseURL, apiKey: 'sk-test', maxRetries: 0 }) };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('fake OpenAI-compatible server, through the openai SDK', () => {
  it('answers chat with echo replies, n choices and token usage', async () => {
    const { server, sdk } = await start();
    const r = await sdk.chat.completions.create({
      model: 'm1',
      n: 2,
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'hello world' },
      ],
    });
    expect(r.choices.map((c) => c.message.content)).toEqual(['echo: hello world', 'echo: hello world #1']);
    // cl100k: "be| brief" 2, "hello| world" 2, "echo|:| hello| world" 4, "... #|1" 6.
    // Prompt = 3 priming + 3 per message + content tokens = 3 + (3 + 2) + (3 + 2).
    expect(r.usage).toEqual({ prompt_tokens: 13, completion_tokens: 10, total_tokens: 23 });
    const st = server.stats();
    expect(st.total).toBe(1);
    expect(st.byModel).toEqual({ m1: 1 });
    expect(st.byPath['/v1/chat/completions']).toBe(1);
    expect(server.requests()[0]?.authorization).toBe('Bearer sk-test');
  });

  it('serves scripted replies per model before rules, and rules before the default', async () => {
    const { server, sdk } = await start({
      reply: 'default',
      rules: [{ match: /verify/i, reply: (ctx) => `rule for ${ctx.model}` }],
    });
    server.enqueueReplies(['scripted A'], 'a');
    server.enqueueReplies(['global']);
    const ask = async (model: string, content: string) =>
      (await sdk.chat.completions.create({ model, messages: [{ role: 'user', content }] })).choices[0]
        ?.message.content;
    expect(await ask('a', 'verify this')).toBe('scripted A');
    expect(await ask('b', 'verify this')).toBe('global');
    expect(await ask('b', 'verify this')).toBe('rule for b');
    expect(await ask('b', 'other')).toBe('default');
  });

  it('returns logprobs with top alternatives, fixed values when the reply gives them', async () => {
    const { server, sdk } = await start();
    server.enqueueReplies([
      {
        content: 'Yes',
        logprobs: [
          {
            token: 'Yes',
            logprob: -0.1,
            top: [
              { token: 'Yes', logprob: -0.1 },
              { token: 'No', logprob: -2.4 },
            ],
          },
        ],
      },
    ]);
    const r = await sdk.chat.completions.create({
      model: 'j',
      messages: [{ role: 'user', content: 'q' }],
      logprobs: true,
      top_logprobs: 2,
    });
    const lp = r.choices[0]?.logprobs?.content ?? [];
    expect(lp[0]?.logprob).toBe(-0.1);
    expect(lp[0]?.top_logprobs.map((t) => t.token)).toEqual(['Yes', 'No']);
    const r2 = await sdk.chat.completions.create({
      model: 'j',
      messages: [{ role: 'user', content: 'a longer reply' }],
      logprobs: true,
      top_logprobs: 3,
    });
    for (const t of r2.choices[0]?.logprobs?.content ?? []) {
      expect(t.top_logprobs).toHaveLength(3);
      expect(t.top_logprobs[0]?.logprob).toBe(t.logprob);
      expect(t.top_logprobs[1]!.logprob).toBeLessThan(t.logprob);
    }
  });

  it('returns deterministic unit-length embeddings, float or base64, with configurable dims', async () => {
    const { sdk } = await start({ embeddingDim: 16 });
    const a = await sdk.embeddings.create({
      model: 'e',
      input: ['the cat sat', 'the cat sat', 'stock markets fell'],
    });
    const v = a.data.map((d) => d.embedding);
    expect(v[0]).toHaveLength(16);
    expect(v[0]).toEqual(v[1]);
    const norm = Math.sqrt(v[0]!.reduce((s, x) => s + x * x, 0));
    expect(norm).toBeCloseTo(1, 5);
    const b = await sdk.embeddings.create({
      model: 'e',
      input: 'x',
      dimensions: 8,
      encoding_format: 'float',
    });
    expect(b.data[0]?.embedding).toHaveLength(8);
    expect(a.usage.prompt_tokens).toBe(9);
  });

  it('lists models and requires the configured API key', async () => {
    const { server, sdk } = await start({ apiKey: 'sk-right', models: ['x'] });
    await expect(sdk.models.list()).rejects.toMatchObject({ status: 401 });
    const ok = new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-right', maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of ok.models.list()) ids.push(m.id);
    expect(ids).toEqual(['x']);
  });

  it('injects scripted faults: 429 with Retry-After, 500, 503, non-JSON, truncated', async () => {
    const { server, sdk } = await start();
    const call = () =>
      sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    server.injectFault({ kind: 'rate-limit', retryAfterSeconds: 2, retryAfterMs: 1500 });
    await expect(call()).rejects.toMatchObject({ status: 429 });
    server.injectFault({ kind: 'server-error' });
    await expect(call()).rejects.toMatchObject({ status: 500 });
    server.injectFault({ kind: 'unavailable' });
    await expect(call()).rejects.toMatchObject({ status: 503 });
    server.injectFault({ kind: 'non-json' });
    // openai 6 parses with the fetch Response (another realm than jest's): match by name.
    await expect(call()).rejects.toMatchObject({ name: 'SyntaxError' });
    server.injectFault({ kind: 'truncate' });
    await expect(call()).rejects.toThrow();
    expect((await call()).choices[0]?.message.content).toBe('echo: hi');
    const log = server.requests();
    expect(log[0]?.status).toBe(429);
    expect(server.stats().faults).toEqual({
      'rate-limit': 1,
      'server-error': 1,
      unavailable: 1,
      'non-json': 1,
      truncate: 1,
    });
  });

  it('holds a hung request until the client gives up', async () => {
    const { server, sdk } = await start();
    server.injectFault({ kind: 'hang' });
    await expect(
      sdk.chat.completions.create(
        { model: 'm', messages: [{ role: 'user', content: 'hi' }] },
        { timeout: 300 },
      ),
    ).rejects.toThrow();
    const rec = server.requests()[0];
    expect(rec?.fault).toBe('hang');
    expect(rec?.status).toBeNull();
  });

  it('draws random faults reproducibly from a seed', async () => {
    const outcomes = async () => {
      const { sdk } = await start({
        randomFaults: { probability: 0.5, seed: 42, kinds: [{ kind: 'server-error' }] },
      });
      const out: string[] = [];
      for (let i = 0; i < 12; i++) {
        out.push(
          await sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).then(
            () => 'ok',
            () => 'fail',
          ),
        );
      }
      return out;
    };
    const first = await outcomes();
    expect(first).toContain('ok');
    expect(first).toContain('fail');
    expect(await outcomes()).toEqual(first);
  });

  it('queues requests beyond capacity inside the server', async () => {
    // 400 ms per answer: the six requests all arrive while the first two are answered, even when a
    // loaded machine spreads them (at 50 ms, CI once saw only 4 in flight at a time).
    const { server, sdk } = await start({ capacity: 2, latencyMs: 400 });
    await Promise.all(
      Array.from({ length: 6 }, () =>
        sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }),
      ),
    );
    const st = server.stats();
    expect(st.maxActive).toBe(2);
    expect(st.maxInFlight).toBe(6);
    expect(st.maxQueued).toBe(4);
    expect(st.inFlight).toBe(0);
    expect(st.completedChats).toBe(6);
  });

  it('runs as its own process and prints its URL as one JSON line', async () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
    const child = spawn(
      process.execPath,
      [
        'packages/testing/dist/fake-llm-cli.js',
        '--port',
        '0',
        '--reply',
        'from cli',
        '--fault',
        'server-error:1',
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const info = JSON.parse(line) as { baseURL: string; url: string };
      const sdk = new OpenAI({ baseURL: info.baseURL, apiKey: 'k', maxRetries: 0 });
      const call = () =>
        sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
      await expect(call()).rejects.toMatchObject({ status: 500 });
      expect((await call()).choices[0]?.message.content).toBe('from cli');
      const stats = (await (await fetch(`${info.url}/_fake/stats`)).json()) as { total: number };
      expect(stats.total).toBe(2);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  it('answers from a shipped rules file with template replies, and names a port in use', async () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
    const cli = (args: string[]) =>
      spawn(process.execPath, ['packages/testing/dist/fake-llm-cli.js', ...args], {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const child = cli(['--port', '0', '--rules', 'examples/fake/kgds.rules.json']);
    try {
      const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
      const info = JSON.parse(line) as { baseURL: string; port: number };
      const sdk = new OpenAI({ baseURL: info.baseURL, apiKey: 'k', maxRetries: 0 });
      const r = await sdk.chat.completions.create({
        model: 'm',
        messages: [
          { role: 'user', content: 'Background summary:\nx\n\nFacts, numbered 1 to 3:\n1. a\n2. b\n3. c' },
        ],
      });
      expect(r.choices[0]?.message.content).toBe('1. yes\n2. yes\n3. yes');

      const busy = cli(['--port', String(info.port)]);
      let stderr = '';
      busy.stderr!.setEncoding('utf8').on('data', (c: string) => {
        stderr += c;
      });
      const [code] = await once(busy, 'exit');
      expect(code).toBe(2);
      expect(stderr).toBe(
        `fake-llm: port ${info.port} is in use (another fake-llm or server?): pass --port N, or --port 0 for any free port\n`,
      );
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
});
