import { afterEach, describe, expect, it } from '@jest/globals';
import { countTokens } from '@precis/text';
import OpenAI, { AzureOpenAI } from 'openai';
import { type FakeLlmServer, startFakeLlmServer } from '../../src/index.js';

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
// cl100k: "echo|:| hello| world" is 4 tokens, the prompt 3 + 3 + 2 = 8.
const ECHO_TOKENS = 4;

function chat(sdk: OpenAI, body: ChatBody) {
  return sdk.chat.completions.create({
    messages: HELLO,
    ...body,
  } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming);
}

// The refusal as the openai client's APIError exposes it.
async function refusal(call: Promise<unknown>) {
  const err = (await call.then(
    () => {
      throw new Error('expected the request to be refused');
    },
    (e: unknown) => e,
  )) as InstanceType<typeof OpenAI.APIError>;
  const body = err.error as { message?: string };
  return { status: err.status, type: err.type, param: err.param, code: err.code, message: body?.message };
}

const openAiUsage = (prompt: number, completion: number, reasoning: number, cached = 0) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
  prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
  completion_tokens_details: {
    reasoning_tokens: reasoning,
    audio_tokens: 0,
    accepted_prediction_tokens: 0,
    rejected_prediction_tokens: 0,
  },
});

describe('fake server, openai profile: reasoning models (o1, o3, o4, gpt-5)', () => {
  it.each(['o1-mini', 'o3', 'o4-mini', 'gpt-5', 'gpt-5-mini'])('%s refuses max_tokens', async (model) => {
    const { sdk } = await start({ profile: 'openai' });
    expect(await refusal(chat(sdk, { model, max_tokens: 64 }))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      param: 'max_tokens',
      code: 'unsupported_parameter',
      message:
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    });
  });

  it('refuses temperature and top_p other than 1, naming the value sent', async () => {
    const { sdk } = await start({ profile: 'openai' });
    const unsupported = (param: string, value: string) => ({
      status: 400,
      type: 'invalid_request_error',
      param,
      code: 'unsupported_value',
      message: `Unsupported value: '${param}' does not support ${value} with this model. Only the default (1) value is supported.`,
    });
    expect(await refusal(chat(sdk, { model: 'gpt-5', temperature: 0 }))).toEqual(
      unsupported('temperature', '0'),
    );
    expect(await refusal(chat(sdk, { model: 'o3', temperature: 0.7 }))).toEqual(
      unsupported('temperature', '0.7'),
    );
    expect(await refusal(chat(sdk, { model: 'o4-mini', top_p: 0.5 }))).toEqual(unsupported('top_p', '0.5'));
    const ok = await chat(sdk, { model: 'gpt-5', temperature: 1, top_p: 1, max_completion_tokens: 500 });
    expect(ok.choices[0]?.message.content).toBe('echo: hello world');
  });

  it('refuses logprobs and top_logprobs, and reasoning_effort outside minimal..high', async () => {
    const { server, sdk } = await start({ profile: 'openai' });
    const logprobs = {
      status: 400,
      type: 'invalid_request_error',
      param: 'logprobs',
      code: 'unsupported_parameter',
      message: "Unsupported parameter: 'logprobs' is not supported with this model.",
    };
    expect(await refusal(chat(sdk, { model: 'gpt-5', logprobs: true }))).toEqual(logprobs);
    expect(await refusal(chat(sdk, { model: 'gpt-5', top_logprobs: 2 }))).toEqual(logprobs);
    expect(await refusal(chat(sdk, { model: 'o3', reasoning_effort: 'extreme' }))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      param: 'reasoning_effort',
      code: 'unsupported_value',
      message:
        "Unsupported value: 'reasoning_effort' does not support 'extreme' with this model. Supported values are: 'minimal', 'low', 'medium', and 'high'.",
    });
    // Refused requests are answered at once and never reach the scripted replies.
    expect(server.stats().completedChats).toBe(0);
    expect(server.requests().map((r) => r.status)).toEqual([400, 400, 400]);
  });

  it('spends hidden reasoning tokens by effort, counted in completion_tokens', async () => {
    const { sdk } = await start({ profile: 'openai' });
    const expected = { minimal: 16, low: 32, medium: 48, high: 64 } as const;
    for (const [effort, reasoning] of Object.entries(expected)) {
      const r = await chat(sdk, {
        model: 'gpt-5',
        reasoning_effort: effort,
        max_completion_tokens: 1000,
      });
      expect(r.choices[0]?.message).toEqual({
        role: 'assistant',
        content: 'echo: hello world',
        refusal: null,
      });
      expect(r.usage).toEqual(openAiUsage(8, reasoning + ECHO_TOKENS, reasoning));
    }
    const byDefault = await chat(sdk, { model: 'o3' });
    expect(byDefault.usage?.completion_tokens_details?.reasoning_tokens).toBe(48);
  });

  it('cuts at max_completion_tokens: reasoning first, then the part of the reply that fits', async () => {
    const { sdk } = await start({ profile: 'openai' });
    const starved = await chat(sdk, { model: 'gpt-5', max_completion_tokens: 40 });
    expect(starved.choices[0]?.message.content).toBe('');
    expect(starved.choices[0]?.finish_reason).toBe('length');
    expect(starved.usage).toEqual(openAiUsage(8, 40, 40));
    const partly = await chat(sdk, { model: 'gpt-5', max_completion_tokens: 50 });
    expect(partly.choices[0]?.message.content).toBe('echo:');
    expect(partly.choices[0]?.finish_reason).toBe('length');
    expect(partly.usage).toEqual(openAiUsage(8, 50, 48));
    const fits = await chat(sdk, { model: 'gpt-5', max_completion_tokens: 52 });
    expect(fits.choices[0]?.finish_reason).toBe('stop');
    expect(fits.usage?.completion_tokens).toBe(52);
  });

  it('honours n and seed, each choice reasoning on its own', async () => {
    const { sdk } = await start({ profile: 'openai' });
    const r = await chat(sdk, { model: 'gpt-5', n: 3, seed: 7, max_completion_tokens: 500 });
    expect(r.choices.map((c) => c.message.content)).toEqual([
      'echo: hello world',
      'echo: hello world #1',
      'echo: hello world #2',
    ]);
    // "echo: hello world #1" is 6 tokens.
    expect(r.usage).toEqual(openAiUsage(8, 3 * 48 + 4 + 6 + 6, 3 * 48));
  });
});

describe('fake server, openai profile: chat models (gpt-4o...)', () => {
  it('takes max_tokens or max_completion_tokens and logprobs, and refuses reasoning_effort', async () => {
    const { sdk } = await start({ profile: 'openai' });
    const a = await chat(sdk, { model: 'gpt-4o', max_tokens: 100, logprobs: true, top_logprobs: 2 });
    expect(a.choices[0]?.message.content).toBe('echo: hello world');
    expect(a.choices[0]?.logprobs?.content?.map((t) => t.token).join('')).toBe('echo: hello world');
    expect(a.choices[0]?.logprobs?.content?.[0]?.top_logprobs).toHaveLength(2);
    expect(a.usage).toEqual(openAiUsage(8, ECHO_TOKENS, 0));
    const b = await chat(sdk, { model: 'gpt-4o-mini', max_completion_tokens: 2 });
    expect(b.choices[0]?.message.content).toBe('echo:');
    expect(b.choices[0]?.finish_reason).toBe('length');
    expect(b.usage?.completion_tokens).toBe(2);
    expect(await refusal(chat(sdk, { model: 'gpt-4o', reasoning_effort: 'low' }))).toEqual({
      status: 400,
      type: 'invalid_request_error',
      param: 'reasoning_effort',
      code: 'unsupported_parameter',
      message: "Unsupported parameter: 'reasoning_effort' is not supported with this model.",
    });
  });

  it('reports cached prompt tokens for a first message seen before, in 128-token blocks', async () => {
    const { sdk } = await start({ profile: 'openai' });
    const long = `Instructions. ${'Summarize the chapter faithfully and briefly. '.repeat(150)}`;
    const first = countTokens(long);
    expect(first).toBeGreaterThan(1024);
    const ask = (model: string, question: string) =>
      sdk.chat.completions.create({
        model,
        messages: [
          { role: 'system', content: long },
          { role: 'user', content: question },
        ],
      });
    const cold = await ask('gpt-4o', 'chapter 1');
    expect(cold.usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    const warm = await ask('gpt-4o', 'chapter 2');
    expect(warm.usage?.prompt_tokens_details?.cached_tokens).toBe(Math.floor(first / 128) * 128);
    // The cache is per model, and a prompt under 1024 tokens is never cached.
    expect((await ask('gpt-5', 'chapter 2')).usage?.prompt_tokens_details?.cached_tokens).toBe(0);
    await chat(sdk, { model: 'gpt-4o' });
    expect((await chat(sdk, { model: 'gpt-4o' })).usage?.prompt_tokens_details?.cached_tokens).toBe(0);
  });

  it('reports cachedPromptTokens when the option forces it, at most the prompt', async () => {
    const { sdk } = await start({ profile: 'openai', cachedPromptTokens: 5 });
    expect((await chat(sdk, { model: 'gpt-4o' })).usage?.prompt_tokens_details?.cached_tokens).toBe(5);
    const { sdk: sdk2 } = await start({ profile: 'openai', cachedPromptTokens: 4096 });
    expect((await chat(sdk2, { model: 'gpt-4o' })).usage?.prompt_tokens_details?.cached_tokens).toBe(8);
  });
});

describe('fake server, azure-openai profile, through AzureOpenAI', () => {
  const apiVersion = '2024-10-21';

  it('serves the deployment route the client posts to, with the api-key header', async () => {
    const { server } = await start({ profile: 'azure-openai', apiKey: 'sk-az' });
    expect(server.baseURL).toBe(`${server.url}/openai`);
    const azure = new AzureOpenAI({
      endpoint: server.url,
      apiKey: 'sk-az',
      deployment: 'gpt-5-mini',
      apiVersion,
      maxRetries: 0,
    });
    const r = await azure.chat.completions.create({ model: '', messages: HELLO, max_completion_tokens: 500 });
    expect(r.model).toBe('gpt-5-mini');
    expect(r.choices[0]?.message.content).toBe('echo: hello world');
    expect(r.usage).toEqual(openAiUsage(8, 48 + ECHO_TOKENS, 48));
    const e = await azure.embeddings.create({ model: 'ignored', input: 'the cat sat' });
    expect(e.model).toBe('gpt-5-mini');
    expect(e.data[0]?.embedding).toHaveLength(64);
    expect(server.requests().map((q) => [q.path, q.model, q.authorization])).toEqual([
      ['/openai/deployments/gpt-5-mini/chat/completions', 'gpt-5-mini', 'api-key sk-az'],
      ['/openai/deployments/gpt-5-mini/embeddings', 'gpt-5-mini', 'api-key sk-az'],
    ]);
  });

  it("answers the deployment's model as OpenAI does: a reasoning deployment refuses max_tokens", async () => {
    const { server } = await start({ profile: 'azure-openai' });
    // Without `deployment`, the client takes the body's model as the deployment.
    const azure = new AzureOpenAI({ baseURL: server.baseURL, apiKey: 'k', apiVersion, maxRetries: 0 });
    expect(
      await refusal(azure.chat.completions.create({ model: 'o4-mini', messages: HELLO, max_tokens: 8 })),
    ).toMatchObject({ status: 400, param: 'max_tokens', code: 'unsupported_parameter' });
    const ok = await azure.chat.completions.create({ model: 'gpt-4o', messages: HELLO, max_tokens: 8 });
    expect(ok.choices[0]?.message.content).toBe('echo: hello world');
    expect(server.requests()[1]?.path).toBe('/openai/deployments/gpt-4o/chat/completions');
    const ids: string[] = [];
    for await (const m of azure.models.list()) ids.push(m.id);
    expect(ids).toContain('gpt-4o');
  });

  it("answers Azure's 401 to a wrong key and 404 without api-version or off its routes", async () => {
    const { server } = await start({ profile: 'azure-openai', apiKey: 'sk-az' });
    const wrong = new AzureOpenAI({ endpoint: server.url, apiKey: 'sk-other', apiVersion, maxRetries: 0 });
    const denied = await wrong.chat.completions.create({ model: 'gpt-4o', messages: HELLO }).catch((e) => e);
    expect(denied).toMatchObject({ status: 401, code: '401' });
    expect(denied.error.message).toMatch(/^Access denied due to invalid subscription key/);
    const post = (path: string) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'api-key': 'sk-az', 'content-type': 'application/json' },
        body: JSON.stringify({ messages: HELLO }),
      });
    const notFound = { error: { code: '404', message: 'Resource not found' } };
    const noVersion = await post('/openai/deployments/gpt-4o/chat/completions');
    expect([noVersion.status, await noVersion.json()]).toEqual([404, notFound]);
    const openAiPath = await post(`/v1/chat/completions?api-version=${apiVersion}`);
    expect([openAiPath.status, await openAiPath.json()]).toEqual([404, notFound]);
    const ok = await post(`/openai/deployments/gpt-4o/chat/completions?api-version=${apiVersion}`);
    expect(ok.status).toBe(200);
  });
});
