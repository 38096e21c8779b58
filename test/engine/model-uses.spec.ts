import { describe, expect, it } from '@jest/globals';
import { modelUseProblems, parseModelRegistryText } from '@precis/llm';
import { builtInFamilies, specModelUses, validateSpec } from '../support/precis.js';

// What each family declares it asks of the models a spec names, and what the preflight makes of
// it against a registry (the CLI's and the gateway's capability check).
const spec = (raw: object) => validateSpec(builtInFamilies, raw, 'spec.yaml');
const uses = (raw: object) => specModelUses(builtInFamilies, spec(raw));

const registry = parseModelRegistryText(
  JSON.stringify({
    defaults: { baseURL: 'http://127.0.0.1:9/v1' },
    models: {
      gpt5: { provider: 'openai', model: 'gpt-5-mini' },
      mini: { provider: 'openai', model: 'gpt-4o-mini' },
      claude: { provider: 'anthropic', model: 'claude-sonnet-4-5' },
    },
  }),
  'models.json',
);
const problems = (raw: object) => modelUseProblems(registry, uses(raw));

const opinion = (metric: object) => ({
  name: 'op',
  datasets: [{ name: 'op', kind: 'summeval-op', path: 'op.jsonl' }],
  systems: [{ name: 'sum', strategy: 'opinion', model: 'gpt5' }],
  metrics: [{ name: 'dimensions', judge: { model: 'gpt5' }, ...metric }],
});
const persphere = {
  name: 'ps',
  datasets: [{ name: 'ps', kind: 'persphere', path: 'q.jsonl', corpus: 'd.jsonl' }],
  systems: [
    { name: 'van', strategy: 'vanilla', model: 'gpt5' },
    { name: 'hier', strategy: 'hiersphere', model: 'claude' },
    { name: 'lead', strategy: 'vanilla', engine: 'lead' },
  ],
  metrics: [{ name: 'persphere', judge: { model: 'mini' } }],
};

describe('specModelUses over the built-in families', () => {
  it('a system samples at any temperature; the dimensions judge asks its temperature and logprobs', () => {
    expect(uses(opinion({ family: 'g-eval', samples: 3, logprobs: true }))).toEqual([
      {
        where: 'systems[0] (sum)',
        model: 'gpt5',
        role: 'system "sum"',
        changeModel: 'summarize with',
        temperature: 0.5,
        anyTemperature: true,
      },
      {
        where: 'metrics[0] (dimensions judge, logprobs: true)',
        model: 'gpt5',
        role: 'the judge',
        changeModel: 'judge with',
        temperature: 0.7,
        temperatureField: 'metrics[0].temperature',
        logprobs: { top: 5, fix: 'set metrics[0].logprobs: false (score = mean of the parsed samples)' },
      },
      {
        where: 'metrics[0] (dimensions judge, G-Eval evaluation steps)',
        model: 'gpt5',
        role: 'the judge',
        changeModel: 'judge with',
        temperature: 0,
        temperatureFix: 'set metrics[0].family: op-i or op (no evaluation steps)',
      },
    ]);
  });

  it('G-Eval on a reasoning model: the steps cannot be fixed by a temperature, the scores can', () => {
    expect(problems(opinion({ family: 'g-eval', temperature: 1 }))).toEqual([
      'metrics[0] (dimensions judge, G-Eval evaluation steps): model "gpt5" (openai, gpt-5-mini) takes only temperature 1, but the judge asks for temperature 0; set metrics[0].family: op-i or op (no evaluation steps) or judge with a model that takes temperature 0',
    ]);
    expect(problems(opinion({ family: 'op', temperature: 1 }))).toEqual([]);
  });

  it("PerSphere: the judge, and each verified system's own model for stance and reference at 0", () => {
    expect(problems(persphere)).toEqual([
      'metrics[0] (persphere stance and reference, by system "van"): model "gpt5" (openai, gpt-5-mini) takes only temperature 1, but stance and reference detection asks for temperature 0; list only other systems in metrics[0].systems or give system "van" a model that takes temperature 0',
    ]);
    const scoped = {
      ...persphere,
      metrics: [{ name: 'persphere', judge: { model: 'mini' }, systems: ['hier'] }],
    };
    expect(uses(scoped).map((u) => u.where)).toEqual([
      'systems[0] (van)',
      'systems[1] (hier)',
      'metrics[0] (persphere judge)',
      'metrics[0] (persphere stance and reference, by system "hier")',
    ]);
    expect(problems(scoped)).toEqual([]);
  });

  it('KGDS and GoR pairwise judges are checked at their judge.temperature', () => {
    const kgds = {
      name: 'kg',
      datasets: [{ name: 'kg', kind: 'kgds', path: 'kgds.json' }],
      systems: [{ name: 'ebs', strategy: 'ebs-aos', model: 'gpt5' }],
      metrics: [{ name: 'kgds', judge: { model: 'gpt5' } }],
    };
    expect(problems(kgds)).toEqual([
      'metrics[0] (kgds judge): model "gpt5" (openai, gpt-5-mini) takes only temperature 1, but the judge asks for temperature 0; set metrics[0].judge.temperature: 1 (the judge then samples at 1) or judge with another model',
    ]);
    expect(
      problems({ ...kgds, metrics: [{ name: 'kgds', judge: { model: 'gpt5', temperature: 1 } }] }),
    ).toEqual([]);
    const gor = {
      name: 'gor',
      datasets: [{ name: 'qm', kind: 'qmsum', path: 'qm.jsonl' }],
      systems: [
        { name: 'gor', strategy: 'gor', model: 'gpt5' },
        { name: 'rag', strategy: 'rag', model: 'gpt5', params: { retriever: 'bm25' } },
      ],
      metrics: [
        { name: 'rouge' },
        { name: 'gor-pairwise', judge: { model: 'claude', temperature: 2 }, baseline: 'rag' },
      ],
    };
    expect(problems(gor)).toEqual([
      'metrics[1] (gor-pairwise judge): model "claude" (anthropic, claude-sonnet-4-5) takes temperature 0..1, but the judge asks for temperature 2; set metrics[1].judge.temperature: 1 (the judge then samples at 1) or judge with another model',
    ]);
  });
});
