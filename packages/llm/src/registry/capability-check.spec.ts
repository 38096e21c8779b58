import { describe, expect, it } from '@jest/globals';
import {
  capabilityProblems,
  describeCapabilityProblems,
  type ModelUse,
  modelUseProblems,
} from './capability-check.js';
import { parseModelRegistryText } from './load-model-registry.js';

const registry = parseModelRegistryText(
  JSON.stringify({
    defaults: { baseURL: 'http://127.0.0.1:9/v1' },
    models: {
      gpt5: { provider: 'openai', model: 'gpt-5-mini' },
      mini: { provider: 'openai', model: 'gpt-4o-mini' },
      claude: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
      gemini: { provider: 'gemini', model: 'gemini-2.5-flash' },
      few: { model: 'local', capabilities: { maxTopLogprobs: 3 } },
    },
  }),
  'models.json',
);

const judge = (i: number, model: string, extra: Partial<ModelUse>): ModelUse => ({
  where: `metrics[${i}] (booookscore judge)`,
  model,
  role: 'the judge',
  changeModel: 'judge with',
  temperatureField: `metrics[${i}].judge.temperature`,
  ...extra,
});

const dimensions = (model: string, temperature = 0): ModelUse => ({
  where: 'metrics[1] (dimensions judge, logprobs: true)',
  model,
  role: 'the judge',
  changeModel: 'judge with',
  temperature,
  temperatureField: 'metrics[1].temperature',
  logprobs: { top: 5, fix: 'set metrics[1].logprobs: false (score = mean of the parsed samples)' },
});

describe('capabilityProblems', () => {
  it('a judge at temperature 0 on a reasoning model: names where, the model and what to set', () => {
    expect(capabilityProblems(registry.get('gpt5'), judge(0, 'gpt5', { temperature: 0 }))).toEqual([
      'metrics[0] (booookscore judge): model "gpt5" (openai, gpt-5-mini) takes only temperature 1, but the judge asks for temperature 0; set metrics[0].judge.temperature: 1 (the judge then samples at 1) or judge with another model',
    ]);
    expect(capabilityProblems(registry.get('gpt5'), judge(0, 'gpt5', { temperature: 1 }))).toEqual([]);
    expect(capabilityProblems(registry.get('mini'), judge(0, 'mini', { temperature: 0 }))).toEqual([]);
  });

  it('a temperature out of range suggests the nearest the model takes', () => {
    expect(capabilityProblems(registry.get('claude'), judge(2, 'claude', { temperature: 1.5 }))).toEqual([
      'metrics[2] (booookscore judge): model "claude" (anthropic, claude-sonnet-4-5) takes temperature 0..1, but the judge asks for temperature 1.5; set metrics[2].judge.temperature: 1 (the judge then samples at 1) or judge with another model',
    ]);
  });

  it('a temperature no field sets: says what else the spec can change', () => {
    const steps: ModelUse = {
      where: 'metrics[1] (dimensions judge, G-Eval evaluation steps)',
      model: 'gpt5',
      role: 'the judge',
      changeModel: 'judge with',
      temperature: 0,
      temperatureFix: 'set metrics[1].family: op-i or op (no evaluation steps)',
    };
    expect(capabilityProblems(registry.get('gpt5'), steps)).toEqual([
      'metrics[1] (dimensions judge, G-Eval evaluation steps): model "gpt5" (openai, gpt-5-mini) takes only temperature 1, but the judge asks for temperature 0; set metrics[1].family: op-i or op (no evaluation steps) or judge with a model that takes temperature 0',
    ]);
    const { temperatureFix: _, ...bare } = steps;
    expect(capabilityProblems(registry.get('gpt5'), bare)).toEqual([
      'metrics[1] (dimensions judge, G-Eval evaluation steps): model "gpt5" (openai, gpt-5-mini) takes only temperature 1, but the judge asks for temperature 0; judge with a model that takes temperature 0',
    ]);
  });

  it('a summarizer that runs at any temperature is never refused for it', () => {
    const system: ModelUse = {
      where: 'systems[0] (inc)',
      model: 'gpt5',
      role: 'system "inc"',
      changeModel: 'summarize with',
      temperature: 0.5,
      anyTemperature: true,
    };
    expect(capabilityProblems(registry.get('gpt5'), system)).toEqual([]);
  });

  it('logprobs a provider ignores or refuses, and more top_logprobs than it returns', () => {
    expect(capabilityProblems(registry.get('claude'), dimensions('claude'))).toEqual([
      'metrics[1] (dimensions judge, logprobs: true): model "claude" (anthropic, claude-sonnet-4-5) returns no logprobs (its provider ignores them); set metrics[1].logprobs: false (score = mean of the parsed samples) or judge with a model whose provider returns logprobs',
    ]);
    expect(capabilityProblems(registry.get('gemini'), dimensions('gemini'))).toEqual([
      'metrics[1] (dimensions judge, logprobs: true): model "gemini" (gemini, gemini-2.5-flash) returns no logprobs (its provider refuses them); set metrics[1].logprobs: false (score = mean of the parsed samples) or judge with a model whose provider returns logprobs',
    ]);
    expect(capabilityProblems(registry.get('few'), dimensions('few'))).toEqual([
      'metrics[1] (dimensions judge, logprobs: true): model "few" (generic, local) returns at most 3 top_logprobs, but the judge asks for 5; set metrics[1].logprobs: false (score = mean of the parsed samples) or judge with a model that returns 5',
    ]);
    expect(capabilityProblems(registry.get('mini'), dimensions('mini'))).toEqual([]);
  });

  it('a use that asks two things the model lacks gets both lines', () => {
    expect(capabilityProblems(registry.get('gpt5'), dimensions('gpt5'))).toEqual([
      'metrics[1] (dimensions judge, logprobs: true): model "gpt5" (openai, gpt-5-mini) takes only temperature 1, but the judge asks for temperature 0; set metrics[1].temperature: 1 (the judge then samples at 1) or judge with another model',
      'metrics[1] (dimensions judge, logprobs: true): model "gpt5" (openai, gpt-5-mini) returns no logprobs (its provider refuses them); set metrics[1].logprobs: false (score = mean of the parsed samples) or judge with a model whose provider returns logprobs',
    ]);
  });
});

describe('modelUseProblems and the refusal text', () => {
  it('skips models the registry lacks; one problem is one line, several go under a header', () => {
    const uses = [judge(0, 'nope', { temperature: 0 }), judge(0, 'gpt5', { temperature: 0 })];
    const problems = modelUseProblems(registry, uses);
    expect(problems).toHaveLength(1);
    expect(describeCapabilityProblems(problems, '(no run was created)')).toBe(
      `${problems[0]} (no run was created)`,
    );
    const two = modelUseProblems(registry, [dimensions('claude'), judge(2, 'gpt5', { temperature: 0 })]);
    expect(describeCapabilityProblems(two, '(no run was created)')).toBe(
      `the spec asks its models for 2 things they cannot do (no run was created):\n  ${two[0]}\n  ${two[1]}`,
    );
  });
});
