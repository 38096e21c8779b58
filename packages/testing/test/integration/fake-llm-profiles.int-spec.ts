import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from '@jest/globals';
import { countTokens } from '@precis/text';
import OpenAI, { AzureOpenAI } from 'openai';
import { FAKE_PROVIDER_PROFILES, type FakeLlmServer, startFakeLlmServer } from '../../src/index.js';

type Options = Parameters<typeof startFakeLlmServer>[0];
// Any body a provider may be sent, beyond what the SDK's types list.
type ChatBody = { model: string; [field: string]: unknown };

const servers: FakeLlmServer[] = [];
async function start(opts: Options = {}) {
  const server = await startFakeLlmServer(opts);
  servers.push(server);
  return { server, sdk: new OpenAI({ baseURL: server.baseURL, apiKey: 'sk-test', maxRetries: 0 }) };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const HELLO = [{ role: 'user' as const, content: 'hello world' }];
const PLAIN_USAGE = { prompt_tokens: 8, completion_tokens: 4, total_tokens: 12 };
const THINK = /^<think>\n(.+)\n<\/think>\n\n/s;

function chat(sdk: OpenAI, body: ChatBody) {
  return sdk.chat.completions.create({
    messages: HELLO,
    ...body,
  } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
}

describe('fake server, anthropic profile', () => {
  it("refuses n other than 1 with the compatibility layer's error", async () => {
    const { sdk } = await start({ profile: 'anthropic' });
    const err = await chat(sdk, { model: 'claude-sonnet-4-5', n: 2 }).catch((e) => e);
    expect([err.status, err.type, err.param, err.code, err.error.message]).toEqual([
      400,
      'invalid_request_error',
      'n',
      null,
      'n: Only n=1 is supported',
    ]);
  });

  it('ignores logprobs and seed, caps temperature silently, and returns plain usage', async () => {
    const { sdk } = await start({ profile: 'anthropic' });
    const r = await chat(sdk, {
      model: 'claude-sonnet-4-5',
      n: 1,
      logprobs: true,
      top_logprobs: 5,
      seed: 3,
      temperature: 1.7,
      max_tokens: 100,
    });
    expect(r.choices).toHaveLength(1);
    expect(r.choices[0]?.message.content).toBe('echo: hello world');
    expect(r.choices[0]?.logprobs).toBeNull();
    expect(r.usage).toEqual(PLAIN_USAGE);
    const cut = await chat(sdk, { model: 'claude-haiku-4-5', max_completion_tokens: 2 });
    expect([cut.choices[0]?.message.content, cut.choices[0]?.finish_reason]).toEqual(['echo:', 'length']);
  });
});

describe('fake server, gemini profile', () => {
  it('refuses logprobs and top_logprobs', async () => {
    const { sdk } = await start({ profile: 'gemini' });
    for (const body of [{ logprobs: true }, { top_logprobs: 3 }]) {
      const err = await chat(sdk, { model: 'gemini-2.5-flash', ...body }).catch((e) => e);
      expect([err.status, err.type, err.param, err.code, err.error.message]).toEqual([
        400,
        'invalid_request_error',
        'logprobs',
        null,
        'Unsupported parameter: logprobs',
      ]);
    }
  });

  it('counts hidden reasoning for gemini-2.5 and gemini-3 by reasoning_effort, none for others', async () => {
    const { sdk } = await start({ profile: 'gemini' });
    const reasoningOf = async (model: string, effort?: string) => {
      const r = await chat(sdk, { model, ...(effort ? { reasoning_effort: effort } : {}) });
      expect(r.choices[0]?.message.content).toBe('echo: hello world');
      const reasoning = r.usage?.completion_tokens_details?.reasoning_tokens;
      expect(r.usage?.completion_tokens).toBe((reasoning ?? 0) + 4);
      return reasoning;
    };
    expect(await reasoningOf('gemini-2.5-flash')).toBe(48);
    expect(await reasoningOf('gemini-2.5-pro', 'high')).toBe(64);
    expect(await reasoningOf('gemini-3-pro-preview', 'low')).toBe(32);
    expect(await reasoningOf('gemini-2.5-flash', 'none')).toBe(0);
    expect(await reasoningOf('gemini-2.0-flash', 'high')).toBe(0);
    const err = await chat(sdk, { model: 'gemini-2.5-flash', reasoning_effort: 'max' }).catch((e) => e);
    expect([err.status, err.param, err.code]).toEqual([400, 'reasoning_effort', 'unsupported_value']);
  });

  it('honours n and cuts at max_tokens, reasoning included', async () => {
    const { sdk } = await start({ profile: 'gemini' });
    const two = await chat(sdk, { model: 'gemini-2.5-flash', n: 2 });
    expect(two.choices.map((c) => c.message.content)).toEqual(['echo: hello world', 'echo: hello world #1']);
    const cut = await chat(sdk, { model: 'gemini-2.5-flash', max_tokens: 10 });
    expect([cut.choices[0]?.message.content, cut.choices[0]?.finish_reason]).toEqual(['', 'length']);
    expect(cut.usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 10,
      total_tokens: 18,
      completion_tokens_details: { reasoning_tokens: 10 },
    });
  });
});

describe('fake server, vllm profile', () => {
  it('puts a <think> block before the reply of a thinking model, counted in completion_tokens', async () => {
    const { sdk } = await start({ profile: 'vllm' });
    const r = await chat(sdk, { model: 'Qwen/Qwen3-8B', n: 2, seed: 1, max_tokens: 500 });
    const contents = r.choices.map((c) => c.message.content ?? '');
    const block = THINK.exec(contents[0]!)?.[0] ?? '';
    expect(block).toMatch(/^<think>\nThe user wants a reply to "hello world"\./);
    expect(contents).toEqual([`${block}echo: hello world`, `${block}echo: hello world #1`]);
    expect(r.usage).toEqual({
      prompt_tokens: 8,
      completion_tokens: 2 * countTokens(block) + 4 + 6,
      total_tokens: 8 + 2 * countTokens(block) + 10,
      prompt_tokens_details: null,
    });
    // The same request thinks the same thoughts.
    expect((await chat(sdk, { model: 'Qwen/Qwen3-8B' })).choices[0]?.message.content).toBe(contents[0]);
  });

  it('thinks not with enable_thinking false, nor on a model that does not think', async () => {
    const { sdk } = await start({ profile: 'vllm' });
    const off = await chat(sdk, { model: 'qwen3-32b', chat_template_kwargs: { enable_thinking: false } });
    expect(off.choices[0]?.message.content).toBe('echo: hello world');
    const plain = await chat(sdk, { model: 'meta-llama/Llama-3.1-8B-Instruct' });
    expect(plain.choices[0]?.message.content).toBe('echo: hello world');
    expect(plain.usage).toEqual({ ...PLAIN_USAGE, prompt_tokens_details: null });
  });

  it('cuts inside the <think> block when max_tokens runs out there', async () => {
    const { sdk } = await start({ profile: 'vllm' });
    const r = await chat(sdk, { model: 'deepseek-r1-distill-qwen-7b', max_tokens: 12 });
    const content = r.choices[0]?.message.content ?? '';
    expect(content.startsWith('<think>\nThe user wants')).toBe(true);
    expect(content).not.toContain('</think>');
    expect(r.choices[0]?.finish_reason).toBe('length');
    expect(r.usage?.completion_tokens).toBe(12);
  });

  it('returns logprobs of the whole content, think block included, up to 20 alternatives', async () => {
    const { sdk } = await start({ profile: 'vllm' });
    const r = await chat(sdk, { model: 'qwen3-8b', logprobs: true, top_logprobs: 20 });
    const tokens = r.choices[0]?.logprobs?.content ?? [];
    expect(tokens.map((t) => t.token).join('')).toBe(r.choices[0]?.message.content);
    expect(tokens[0]?.top_logprobs).toHaveLength(20);
  });
});

describe('fake server, ollama profile', () => {
  it('answers one choice whatever n asks, without logprobs, with plain usage', async () => {
    const { sdk } = await start({ profile: 'ollama' });
    const r = await chat(sdk, { model: 'llama3.1:8b', n: 5, logprobs: true, top_logprobs: 3, seed: 9 });
    expect(r.choices.map((c) => [c.message.content, c.logprobs])).toEqual([['echo: hello world', null]]);
    expect(r.usage).toEqual(PLAIN_USAGE);
  });

  it('thinks in <think> tags unless reasoning_effort "none" or think false', async () => {
    const { sdk } = await start({ profile: 'ollama' });
    const on = (await chat(sdk, { model: 'qwen3:8b' })).choices[0]?.message.content ?? '';
    expect(on).toMatch(THINK);
    expect(on.endsWith('\n</think>\n\necho: hello world')).toBe(true);
    for (const off of [{ reasoning_effort: 'none' }, { think: false }]) {
      const r = await chat(sdk, { model: 'qwen3:8b', ...off });
      expect(r.choices[0]?.message.content).toBe('echo: hello world');
    }
  });
});

describe('fake server, openrouter profile', () => {
  it('answers one choice, honours logprobs, and prices usage', async () => {
    const { sdk } = await start({ profile: 'openrouter' });
    const r = await chat(sdk, { model: 'openai/gpt-4o', n: 3, logprobs: true, top_logprobs: 2 });
    expect(r.choices).toHaveLength(1);
    expect(r.choices[0]?.logprobs?.content?.map((t) => t.token).join('')).toBe('echo: hello world');
    // $1/M input, $4/M output: 8 + 4 x 4 = 24 millionths of a dollar.
    expect(r.usage).toEqual({
      ...PLAIN_USAGE,
      cost: 0.000024,
      prompt_tokens_details: { cached_tokens: 0 },
      completion_tokens_details: { reasoning_tokens: 0 },
    });
  });

  it('returns reasoning in message.reasoning, counted; excluded or disabled on request', async () => {
    const { sdk } = await start({ profile: 'openrouter' });
    for (const model of ['deepseek/deepseek-r1', 'anthropic/claude-3.7-sonnet:thinking']) {
      const r = await chat(sdk, { model });
      const message = r.choices[0]?.message as { content: string; reasoning?: string };
      expect(message.content).toBe('echo: hello world');
      expect(message.reasoning).toMatch(/^The user wants a reply to "hello world"\./);
      const reasoning = countTokens(message.reasoning!);
      expect(r.usage?.completion_tokens_details?.reasoning_tokens).toBe(reasoning);
      expect(r.usage?.completion_tokens).toBe(reasoning + 4);
    }
    const excluded = await chat(sdk, { model: 'deepseek/deepseek-r1', reasoning: { exclude: true } });
    expect(excluded.choices[0]?.message).toEqual({
      role: 'assistant',
      content: 'echo: hello world',
      refusal: null,
    });
    expect(excluded.usage?.completion_tokens_details?.reasoning_tokens).toBeGreaterThan(0);
    const disabled = await chat(sdk, { model: 'deepseek/deepseek-r1', reasoning: { enabled: false } });
    expect(disabled.choices[0]?.message).toEqual({
      role: 'assistant',
      content: 'echo: hello world',
      refusal: null,
    });
    expect(disabled.usage?.completion_tokens_details?.reasoning_tokens).toBe(0);
  });
});

describe('fake server profiles, all together', () => {
  // Each profile's client, asked something every provider accepts.
  function clientFor(server: FakeLlmServer, profile: string) {
    if (profile !== 'azure-openai')
      return new OpenAI({ baseURL: server.baseURL, apiKey: 'k', maxRetries: 0 });
    return new AzureOpenAI({ baseURL: server.baseURL, apiKey: 'k', apiVersion: '2024-10-21', maxRetries: 0 });
  }

  it.each(FAKE_PROVIDER_PROFILES)(
    '%s gives the generic reply once reasoning is stripped',
    async (profile) => {
      const { server } = await start({
        profile,
        rules: [{ match: /summar/i, reply: (ctx) => `Summary of ${ctx.lastUser.length} chars.` }],
      });
      server.enqueueReplies(['scripted first'], 'qwen3-8b');
      const sdk = clientFor(server, profile);
      const ask = async (content: string) => {
        const r = await sdk.chat.completions.create({
          model: 'qwen3-8b',
          messages: [{ role: 'user', content }],
          max_tokens: 1000,
        });
        return (r.choices[0]?.message.content ?? '').replace(THINK, '');
      };
      expect([await ask('Summarize this.'), await ask('Summarize this.'), await ask('hi')]).toEqual([
        'scripted first',
        'Summary of 15 chars.',
        'echo: hi',
      ]);
    },
  );

  it('switches profile at run time with setProfile', async () => {
    const { server, sdk } = await start();
    expect((await chat(sdk, { model: 'gpt-5', max_tokens: 10 })).choices[0]?.message.content).toBe(
      'echo: hello world',
    );
    server.setProfile('openai');
    await expect(chat(sdk, { model: 'gpt-5', max_tokens: 10 })).rejects.toMatchObject({ status: 400 });
    server.setProfile('azure-openai');
    expect(server.baseURL).toBe(`${server.url}/openai`);
    expect(() => server.setProfile('bedrock' as 'openai')).toThrow(
      'unknown profile "bedrock": expected one of generic, openai, azure-openai, anthropic, gemini, vllm, ollama, openrouter',
    );
  });

  it('takes --profile on the command line, and refuses an unknown one', async () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
    const cli = (profile: string) =>
      spawn(
        process.execPath,
        ['packages/testing/dist/fake-llm-cli.js', '--port', '0', '--profile', profile],
        {
          cwd: root,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    const child = cli('ollama');
    try {
      const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
      const sdk = new OpenAI({ baseURL: JSON.parse(line).baseURL, apiKey: 'k', maxRetries: 0 });
      expect((await chat(sdk, { model: 'llama3.1', n: 3 })).choices).toHaveLength(1);
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    const bad = cli('bedrock');
    let stderr = '';
    bad.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    const [code] = await once(bad, 'exit');
    expect(code).toBe(2);
    expect(stderr).toContain('fake-llm: unknown profile "bedrock": expected one of generic, openai');
  });
});
