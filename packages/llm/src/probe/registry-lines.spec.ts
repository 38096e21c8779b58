import { describe, expect, it } from '@jest/globals';
import { loadModelRegistry } from '../registry/load-model-registry.js';
import type { ModelEntryInput } from '../registry/model-spec.js';
import { compareCapabilities } from './compare-capabilities.js';
import type { ChatObservations } from './probe-types.js';
import { suggestRegistryLines } from './registry-lines.js';

const spec = (model: string, entry: Partial<ModelEntryInput> = {}) =>
  loadModelRegistry({ models: { m: { baseURL: 'http://127.0.0.1:9/v1', model, ...entry } } }).get('m');

// What a plain chat endpoint that takes everything shows.
const PLAIN: ChatObservations = {
  tokenParam: 'both',
  temperatureZero: 'accepted',
  n: 'honoured',
  logprobs: 'honoured',
  topLogprobs: 2,
  seed: 'accepted',
  reasoningText: 'none seen',
  refusals: {},
};
// What OpenAI's reasoning models show.
const REASONING: ChatObservations = {
  ...PLAIN,
  tokenParam: 'max_completion_tokens',
  temperatureZero: 'refused',
  logprobs: 'refused',
  topLogprobs: 0,
  reasoningText: 'hidden',
  refusals: { temperature: 'HTTP 400: only 1' },
};

const table = (s: ReturnType<typeof spec>, o: ChatObservations) =>
  compareCapabilities(s.capabilities, o).map((r) => [
    r.capability,
    r.declared,
    r.observed,
    r.agrees,
    r.either,
  ]);

describe('compareCapabilities', () => {
  it('agrees where one reply cannot tell declared values apart, and says so', () => {
    const rows = compareCapabilities(spec('m', { provider: 'anthropic' }).capabilities, {
      ...PLAIN,
      n: 'refused',
      logprobs: 'ignored',
      refusals: { n: 'HTTP 400: n: Only n=1 is supported' },
    });
    expect(rows.map((r) => [r.capability, r.declared, r.observed, r.agrees, r.either, r.note])).toEqual([
      ['tokenParam', 'max_tokens', 'both', true, true, 'both parameters accepted'],
      ['temperature', '0..1', '0 accepted', true, false, null],
      ['n', 'refused', 'refused', true, false, 'HTTP 400: n: Only n=1 is supported'],
      ['logprobs', 'ignored', 'ignored', true, false, null],
      ['seed', 'ignored', 'accepted', true, true, 'accepted: one reply cannot tell honoured from ignored'],
      [
        'reasoningText',
        'hidden',
        'none seen',
        true,
        true,
        'no reasoning seen: not a thinking model, or its thinking is off',
      ],
    ]);
  });

  it('disagrees on a fixed temperature that takes 0, a refused seed, another reasoning place', () => {
    const s = spec('gpt-5-mini', { provider: 'openai', capabilities: { seed: 'refused' } });
    expect(table(s, { ...REASONING, temperatureZero: 'accepted', reasoningText: 'field' })).toEqual([
      ['tokenParam', 'max_completion_tokens', 'max_completion_tokens', true, false],
      ['temperature', 'only 1', '0 accepted', false, false],
      ['n', 'honoured', 'honoured', true, false],
      ['logprobs', 'refused', 'refused', true, false],
      ['seed', 'refused', 'accepted', false, false],
      ['reasoningText', 'hidden', 'field', false, false],
    ]);
  });
});

describe('suggestRegistryLines', () => {
  it('keeps the declared provider when it fits, with no capabilities', () => {
    expect(suggestRegistryLines(spec('gpt-5-mini', { provider: 'openai' }), REASONING)).toEqual({
      provider: 'openai',
      capabilities: {},
      yaml: 'provider: openai\n',
    });
  });

  it('names the provider whose preset fits an endpoint declared generic', () => {
    const ollama = { ...PLAIN, n: 'ignored' as const, logprobs: 'ignored' as const, topLogprobs: 0 };
    expect(suggestRegistryLines(spec('llama3.1'), ollama).yaml).toBe('provider: ollama\n');
    const router = { ...PLAIN, n: 'ignored' as const, reasoningText: 'field' as const };
    expect(suggestRegistryLines(spec('deepseek/deepseek-r1'), router).yaml).toBe('provider: openrouter\n');
  });

  it('says reasoning: false for an OpenAI id that answers like a chat model', () => {
    expect(suggestRegistryLines(spec('gpt-5-chat-latest', { provider: 'openai' }), PLAIN)).toEqual({
      provider: 'openai',
      reasoning: false,
      capabilities: {},
      yaml: 'provider: openai\nreasoning: false\n',
    });
  });

  it('lists only what differs from the preset, the entry’s own overrides kept', () => {
    const s = spec('my-model', { provider: 'vllm', capabilities: { maxTopLogprobs: 5, topP: 'ignored' } });
    const lines = suggestRegistryLines(s, { ...PLAIN, seed: 'refused', temperatureZero: 'refused' });
    expect(lines.capabilities).toEqual({
      temperature: { fixed: 1 },
      topP: 'ignored',
      maxTopLogprobs: 5,
      seed: 'refused',
    });
    expect(lines.yaml).toBe(
      [
        'provider: vllm',
        'capabilities:',
        '  temperature:',
        '    fixed: 1',
        '  topP: ignored',
        '  maxTopLogprobs: 5',
        '  seed: refused',
        '',
      ].join('\n'),
    );
  });

  it('keeps Azure entries on azure-openai and the budget parameter the endpoint took', () => {
    const s = spec('gpt-4o-mini', { provider: 'azure-openai', deployment: 'd', apiVersion: '2024-10-21' });
    expect(suggestRegistryLines(s, { ...PLAIN, tokenParam: 'max_tokens' }).yaml).toBe(
      'provider: azure-openai\ncapabilities:\n  tokenParam: max_tokens\n',
    );
  });

  it('keeps what every probe sent: reasoning_effort and the thinking-off fields', () => {
    const s = spec('qwen3:8b', { provider: 'ollama', reasoning: { effort: 'low' }, thinking: false });
    const lines = suggestRegistryLines(s, { ...PLAIN, n: 'ignored', logprobs: 'ignored' });
    expect(lines.yaml).toBe('provider: ollama\n');
  });
});
