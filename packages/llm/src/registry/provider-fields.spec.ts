import { describe, expect, it } from '@jest/globals';
import { prepareChat } from '../client/prepare-chat.js';
import { ModelCapabilityError } from '../errors.js';
import { loadModelRegistry, ModelRegistryError } from './load-model-registry.js';
import type { ModelEntryInput } from './model-spec.js';

const base = { baseURL: 'http://127.0.0.1:9/v1' };
const registry = (models: Record<string, Partial<ModelEntryInput>>) =>
  loadModelRegistry({
    models: Object.fromEntries(Object.entries(models).map(([k, v]) => [k, { ...base, model: k, ...v }])),
  });
const user = [{ role: 'user' as const, content: 'hi' }];

function messagesOf(models: Record<string, Partial<ModelEntryInput>>): string[] {
  try {
    registry(models);
  } catch (err) {
    expect(err).toBeInstanceOf(ModelRegistryError);
    return (err as ModelRegistryError).issues.map((i) => `${i.field}: ${i.message}`);
  }
  throw new Error('expected a ModelRegistryError');
}

describe('provider presets in the model registry', () => {
  it('treats OpenAI o-series and gpt-5 ids as reasoning models unless reasoning: false', () => {
    const reg = registry({
      'gpt-5-mini': { provider: 'openai', reasoning: { effort: 'low' } },
      'o4-mini': { provider: 'openai' },
      'gpt-4o': { provider: 'openai' },
      'gpt-5-chat': { provider: 'openai', reasoning: false },
    });
    expect(reg.get('gpt-5-mini').capabilities).toMatchObject({
      tokenParam: 'max_completion_tokens',
      temperature: { fixed: 1 },
      logprobs: 'refused',
    });
    expect(reg.get('gpt-5-mini').reasoning).toEqual({ enabled: true, effort: 'low' });
    expect(reg.get('o4-mini').reasoning).toEqual({ enabled: true, effort: null });
    expect(reg.get('gpt-4o').capabilities).toMatchObject({
      tokenParam: 'max_completion_tokens',
      temperature: { min: 0, max: 2 },
      logprobs: 'honoured',
    });
    expect(reg.get('gpt-5-chat').capabilities.temperature).toEqual({ min: 0, max: 2 });
    expect(reg.get('gpt-5-chat').reasoning.enabled).toBe(false);
  });

  it("keeps the generic preset (today's behaviour) by default and lets capabilities override a preset", () => {
    const reg = registry({
      plain: {},
      claude: { provider: 'anthropic', capabilities: { seed: 'refused', maxTopLogprobs: 0 } },
      local: { provider: 'ollama', capabilities: { n: 'honoured' } },
    });
    expect(reg.get('plain')).toMatchObject({
      provider: 'generic',
      capabilities: { tokenParam: 'max_tokens', n: 'honoured' },
    });
    expect(reg.get('claude').capabilities).toMatchObject({
      n: 'refused',
      logprobs: 'ignored',
      seed: 'refused',
    });
    expect(reg.get('local').capabilities).toMatchObject({ n: 'honoured', logprobs: 'ignored' });
  });

  it('defaults the cached-input price to the input price', () => {
    const reg = registry({
      a: { pricePer1MInput: '1.25', pricePer1MOutput: 10 },
      b: { pricePer1MInput: '1.25', pricePer1MCachedInput: '0.125' },
    });
    expect(reg.get('a')).toMatchObject({ pricePer1MCachedInput: '1.25', priceCachedInUnits: 12500n });
    expect(reg.get('b')).toMatchObject({ pricePer1MCachedInput: '0.125', priceCachedInUnits: 1250n });
  });

  it('reports every wrong provider field with its path', () => {
    expect(
      messagesOf({
        a: { provider: 'bedrock' },
        b: { provider: 'azure-openai' },
        c: { deployment: 'x' },
        d: { reasoning: { effort: 'max' } },
        e: { capabilities: { n: 'sometimes', temperature: { min: 1, max: 0 }, color: 'red' } },
        f: { provider: 'anthropic', thinking: false },
        g: { lengthRetryFactor: 1 },
        h: { extraBody: [] as unknown as Record<string, unknown> },
        i: { extraBody: { model: 'x', stream: true, top_k: 5 } },
        j: { provider: 'anthropic', reasoning: { effort: 'high' } },
      }),
    ).toEqual([
      'models.a.provider: must be one of "generic", "openai", "azure-openai", "anthropic", "gemini", "vllm", "ollama", "openrouter" (got "bedrock")',
      'models.b.deployment: is required with provider "azure-openai" (e.g. "gpt-4o-mini"; got undefined)',
      'models.b.apiVersion: is required with provider "azure-openai" (e.g. "2024-10-21"; got undefined)',
      'models.c.deployment: is only for provider "azure-openai"',
      'models.d.reasoning.effort: must be one of "minimal", "low", "medium", "high" (got "max")',
      'models.e.capabilities.n: must be one of "honoured", "ignored", "refused" (got "sometimes")',
      'models.e.capabilities.temperature: must be { min, max } (0..2) or { fixed } (got {"min":1,"max":0})',
      'models.e.capabilities.color: unknown capability (known: tokenParam, temperature, topP, n, logprobs, seed, maxTopLogprobs, reasoningText, reasoningEffort, thinkingOff)',
      'models.f.thinking: provider "anthropic" has no way to turn thinking off; send the fields through extraBody',
      'models.g.lengthRetryFactor: must be a number > 1 and <= 16 (got 1)',
      'models.h.extraBody: must be a map of request fields',
      'models.i.extraBody: must not set "model", "stream": Precis sets them for every call',
      'models.j.reasoning.effort: provider "anthropic" does not take reasoning_effort for this model; set capabilities.reasoningEffort: true if it does',
    ]);
  });
});

describe('requests shaped to the model', () => {
  const reg = registry({
    'gpt-5-mini': { provider: 'openai', reasoning: { effort: 'minimal' } },
    qwen3: { provider: 'vllm', thinking: false, extraBody: { top_k: 20 } },
    claude: { provider: 'anthropic' },
    plain: {},
  });
  const body = (name: string, req: Record<string, unknown>) =>
    prepareChat(reg.get(name), { model: name, messages: user, ...req }).body();

  it("sends the budget under the model's parameter and leaves out a fixed temperature only where allowed", () => {
    const prepared = prepareChat(reg.get('gpt-5-mini'), {
      model: 'gpt-5-mini',
      messages: user,
      maxTokens: 256,
      temperature: 0.5,
      anyTemperature: true,
    });
    expect(prepared.body()).toEqual({
      model: 'gpt-5-mini',
      messages: user,
      max_completion_tokens: 256,
      reasoning_effort: 'minimal',
    });
    expect(prepared.notes).toEqual(["sampled at the model's fixed temperature 1 (asked 0.5)"]);
    expect(() => body('gpt-5-mini', { temperature: 0 })).toThrow(
      new ModelCapabilityError(
        'gpt-5-mini',
        'temperature',
        'model "gpt-5-mini" (openai, gpt-5-mini) takes only temperature 1; this call asks for temperature 0',
      ),
    );
    expect(body('plain', { maxTokens: 256, temperature: 0 })).toEqual({
      model: 'plain',
      messages: user,
      max_tokens: 256,
      temperature: 0,
    });
  });

  it('turns thinking off, sends extraBody verbatim and refuses logprobs a provider ignores', () => {
    expect(body('qwen3', { temperature: 0.7 })).toEqual({
      model: 'qwen3',
      messages: user,
      temperature: 0.7,
      chat_template_kwargs: { enable_thinking: false },
      top_k: 20,
    });
    expect(() => body('claude', { logprobs: true, topLogprobs: 5 })).toThrow(
      'model "claude" (anthropic, claude) returns no logprobs; this call needs token logprobs',
    );
    expect(body('claude', { seed: 7, temperature: 0.2 })).toEqual({
      model: 'claude',
      messages: user,
      temperature: 0.2,
    });
  });

  it('gives different cache keys to requests shaped differently and the same to the generic shape', () => {
    const key = (name: string, req: Record<string, unknown>) =>
      JSON.stringify(prepareChat(reg.get(name), { model: name, messages: user, ...req }).keyParts.params);
    expect(key('plain', { maxTokens: 10, temperature: 0 })).toBe(
      JSON.stringify({ temperature: 0, max_tokens: 10 }),
    );
    expect(key('qwen3', {})).toContain('enable_thinking');
  });
});
