import { describe, expect, it } from '@jest/globals';
import { LlmConfigError } from '../errors.js';
import { loadModelRegistry, ModelRegistryError, parseModelRegistryText } from './load-model-registry.js';

const YAML = `defaults:
  maxRetries: 2
models:
  small:
    baseURL: http://127.0.0.1:8000/v1/
    apiKeyEnv: OPENAI_API_KEY
    model: gpt-4o-mini
    contextWindow: 128000
    maxConcurrency: 16
    requestsPerMinute: 500
    tokensPerMinute: 200000
    pricePer1MInput: 0.15
    pricePer1MOutput: "0.6"
  embed:
    kind: embedding
    baseURL: http://127.0.0.1:8000/v1
    model: text-embedding-3-small
`;

function issuesOf(fn: () => unknown) {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ModelRegistryError);
    return err as ModelRegistryError;
  }
  throw new Error('expected a ModelRegistryError');
}

describe('model registry', () => {
  it('parses YAML with defaults applied and prices kept exact', () => {
    const reg = parseModelRegistryText(YAML, 'models.yaml');
    const small = reg.get('small');
    expect(small).toMatchObject({
      kind: 'chat',
      baseURL: 'http://127.0.0.1:8000/v1',
      apiKeyEnv: 'OPENAI_API_KEY',
      modelId: 'gpt-4o-mini',
      maxConcurrency: 16,
      requestsPerMinute: 500,
      tokensPerMinute: 200000,
      maxRetries: 2,
      pricePer1MInput: '0.15',
    });
    expect(small.priceInUnits).toBe(1500n);
    expect(small.priceOutUnits).toBe(6000n);
    expect(reg.get('embed')).toMatchObject({
      kind: 'embedding',
      apiKeyEnv: null,
      maxConcurrency: 8,
      requestsPerMinute: null,
    });
    expect(reg.names()).toEqual(['small', 'embed']);
  });

  it('defaults and validates maxRetryAfterSeconds and defaultMaxTokens', () => {
    const base = { baseURL: 'http://127.0.0.1:8000/v1', model: 'm' };
    const reg = loadModelRegistry({
      models: { a: base, b: { ...base, maxRetryAfterSeconds: 0, defaultMaxTokens: 256 } },
    });
    expect(reg.get('a')).toMatchObject({ maxRetryAfterSeconds: 60, defaultMaxTokens: 4096 });
    expect(reg.get('b')).toMatchObject({ maxRetryAfterSeconds: 0, defaultMaxTokens: 256 });
    const err = issuesOf(() =>
      loadModelRegistry({ models: { c: { ...base, maxRetryAfterSeconds: -1, defaultMaxTokens: 0 } } }),
    );
    expect(err.issues.map((i) => `${i.field}: ${i.message}`)).toEqual([
      'models.c.maxRetryAfterSeconds: must be an integer >= 0 (got -1)',
      'models.c.defaultMaxTokens: must be an integer >= 1 (got 0)',
    ]);
  });

  it('accepts JSON text and plain objects', () => {
    const json = JSON.stringify({ models: { a: { baseURL: 'https://api.example.com/v1', model: 'x' } } });
    expect(parseModelRegistryText(json, 'm.json').get('a').modelId).toBe('x');
    expect(loadModelRegistry({ models: { a: { baseURL: 'http://h/v1', model: 'y' } } }).source).toBe(
      '<object>',
    );
  });

  it('reports every invalid field with file, line and field path', () => {
    const bad = `models:
  a:
    baseURL: ftp://nope
    model: x
    maxConcurrency: 0
    pricePer1MInput: 0.123456
    apiKeyEnv: sk-live-secret
    colour: blue
  b:
    baseURL: http://h/v1
`;
    const err = issuesOf(() => parseModelRegistryText(bad, 'conf/models.yaml'));
    const byField = Object.fromEntries(err.issues.map((i) => [i.field, i]));
    expect(Object.keys(byField).sort()).toEqual([
      'models.a.apiKeyEnv',
      'models.a.baseURL',
      'models.a.colour',
      'models.a.maxConcurrency',
      'models.a.pricePer1MInput',
      'models.b.model',
    ]);
    expect(byField['models.a.baseURL']?.line).toBe(3);
    expect(byField['models.a.maxConcurrency']?.line).toBe(5);
    expect(byField['models.b.model']?.line).toBe(10);
    expect(err.message).toContain(
      'conf/models.yaml:5 models.a.maxConcurrency: must be an integer >= 1 (got 0)',
    );
    expect(err.message).toMatch(/at most 4 decimals/);
    // The key someone put in apiKeyEnv never reaches the message (it goes to logs and stderr).
    expect(err.message).not.toContain('sk-live-secret');
    expect(byField['models.a.apiKeyEnv']?.message).toContain('not shown in case it is a key: 14 characters');
  });

  it('refuses an apiKeyEnv shaped like a key, even one that is a valid variable name, without showing it', () => {
    const key = 'AbCdEf0123456789abcdef0123456789xyz';
    for (const value of [key, `sk_${key}`, `sk-proj-${key}`]) {
      const err = issuesOf(() =>
        parseModelRegistryText(
          `models:\n  a:\n    baseURL: http://h/v1\n    model: x\n    apiKeyEnv: ${value}\n`,
          'm.yaml',
        ),
      );
      expect(err.issues.map((i) => i.field)).toEqual(['models.a.apiKeyEnv']);
      expect(err.message).not.toContain(key);
    }
    for (const name of ['OPENAI_API_KEY', 'API_KEY', 'my_key', 'hf_token', 'TOGETHER_API_KEY_2'])
      expect(
        parseModelRegistryText(
          `models:\n  a:\n    baseURL: http://h/v1\n    model: x\n    apiKeyEnv: ${name}\n`,
          'm.yaml',
        ).models.get('a')?.apiKeyEnv,
      ).toBe(name);
  });

  it('rejects syntax errors and missing models with a location', () => {
    expect(issuesOf(() => parseModelRegistryText('models: [\n', 'x.yaml')).issues[0]?.field).toBe('(syntax)');
    expect(issuesOf(() => parseModelRegistryText('other: 1\n', 'x.yaml')).issues.map((i) => i.field)).toEqual(
      ['other', 'models'],
    );
  });

  it('names the known models when an unknown one is asked for', () => {
    const reg = parseModelRegistryText(YAML, 'models.yaml');
    expect(() => reg.get('big')).toThrow(LlmConfigError);
    expect(() => reg.get('big')).toThrow(
      'unknown model "big": not in the model registry models.yaml (known: small, embed)',
    );
  });
  it('masks a key pasted into a field other than apiKeyEnv', () => {
    const key = 'sk-proj-Q2w3E4r5T6y7U8i9O0pAsDf';
    const err = issuesOf(() =>
      parseModelRegistryText(`models:\n  a:\n    baseURL: ${key}\n    model: x\n`, 'models.yaml'),
    );
    expect(err.issues.map((i) => i.field)).toEqual(['models.a.baseURL']);
    expect(err.message).not.toContain(key);
    expect(err.message).toContain('[redacted: looks like a secret]');
  });
});
