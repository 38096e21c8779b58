import { describe, expect, it } from '@jest/globals';
import type { BenchmarkSpec, SystemSpec } from '@precis/engine/family';
import { parseRetriever } from '@precis/retrievers';
import { checkGorSpec, gorSettings, isGorSystem } from './gor-spec.js';

const system = (s: Record<string, unknown>) => ({ params: {}, ...s }) as unknown as SystemSpec;
const spec = (systems: Record<string, unknown>[], metrics: Record<string, unknown>[] = []) =>
  ({ name: 's', datasets: [{ name: 'qmsum', kind: 'qmsum' }], systems, metrics }) as unknown as BenchmarkSpec;
const judge = { model: 'm', temperature: 0 };

describe('gorSettings', () => {
  it('fills the METHODS.md defaults', () => {
    expect(gorSettings(system({ name: 'gor', strategy: 'gor', engine: 'textrank' }))).toEqual({
      strategy: 'gor',
      queries: 30,
      k: 6,
      embedder: 'lsa',
      dimensions: 64,
      retriever: parseRetriever('bm25'),
      retrieverName: 'bm25',
      training: true,
      train: { alpha: 0.5, tau: 0.1, epochs: 150, batchSize: 32, learningRate: 1e-3, inBatchNegatives: true },
      dropout: 0,
      chunkTokens: 256,
      chunkOverlap: 32,
      responseWords: 60,
      summaryWords: 150,
      contextTokens: 4096,
    });
  });

  it('takes every override, the summary budget from budgetWords', () => {
    const s = gorSettings(
      system({
        name: 'tr',
        strategy: 'thought-retriever',
        engine: 'textrank',
        params: {
          queries: 5,
          k: 3,
          embedder: 'dense:e5',
          dimensions: 32,
          retriever: 'lsa',
          training: false,
          alpha: 1,
          tau: 0.2,
          epochs: 7,
          batchSize: 8,
          learningRate: 0.01,
          inBatchNegatives: false,
          dropout: 0.1,
          chunkTokens: 128,
          chunkOverlap: 0,
          responseWords: 20,
          budgetWords: 80,
          contextTokens: 512,
        },
      }),
    );
    expect(s).toMatchObject({
      strategy: 'thought-retriever',
      queries: 5,
      k: 3,
      embedder: 'dense:e5',
      dimensions: 32,
      retrieverName: 'lsa',
      training: false,
      train: { alpha: 1, tau: 0.2, epochs: 7, batchSize: 8, learningRate: 0.01, inBatchNegatives: false },
      dropout: 0.1,
      chunkTokens: 128,
      chunkOverlap: 0,
      responseWords: 20,
      summaryWords: 80,
      contextTokens: 512,
    });
    // The GoR dimensions also size an LSA retriever (instead of its default 100).
    expect(s.retriever).toEqual(parseRetriever('lsa', { dimensions: 32 }));
    expect(s.retriever).toMatchObject({ kind: 'lsa', dimensions: 32 });
  });

  it('throws on an unknown retriever name', () => {
    expect(() =>
      gorSettings(system({ name: 'r', strategy: 'rag', engine: 'textrank', params: { retriever: 'bm26' } })),
    ).toThrow('unknown retriever "bm26"');
  });
});

describe('isGorSystem', () => {
  it('is true only for generated systems with a GoR strategy', () => {
    const s = spec([
      { name: 'cw', strategy: 'context-window', engine: 'textrank', params: {} },
      { name: 'inc', strategy: 'incremental', model: 'm', params: {} },
      { name: 'ds', source: 'dataset', strategy: 'gor' },
    ]);
    expect(['cw', 'inc', 'ds', 'missing'].map((n) => isGorSystem(s, n))).toEqual([true, false, false, false]);
  });
});

describe('checkGorSpec', () => {
  it('asks for a rouge metric beside gor-pairwise', () => {
    const s = spec(
      [{ name: 'bm25', strategy: 'rag', model: 'm', params: {} }],
      [{ name: 'gor-pairwise', judge, baseline: 'bm25', maxAttempts: 3 }],
    );
    expect(checkGorSpec(s)).toEqual([
      {
        path: ['metrics', 0],
        message: 'gor-pairwise reports its win rates beside ROUGE: add `- name: rouge` to metrics',
      },
    ]);
  });

  it('accepts a consistent spec', () => {
    const s = spec(
      [
        { name: 'gor', strategy: 'gor', engine: 'textrank', params: {} },
        { name: 'bm25', strategy: 'rag', model: 'm', params: { retriever: 'rrf:bm25+tfidf' } },
        // Non-GoR systems may use any engine.
        { name: 'lead', strategy: 'incremental', engine: 'lead', params: {} },
      ],
      [
        { name: 'rouge', stemmer: true },
        { name: 'gor-pairwise', judge, baseline: 'bm25', maxAttempts: 3 },
      ],
    );
    expect(checkGorSpec(s)).toEqual([]);
  });

  it('reports a lead GoR system, a bad retriever and a non-GoR baseline at their paths', () => {
    const s = spec(
      [
        { name: 'gor', strategy: 'gor', engine: 'textrank', params: {} },
        { name: 'gor-lead', strategy: 'gor', engine: 'lead', params: {} },
        { name: 'rag', strategy: 'rag', engine: 'textrank', params: { retriever: 'bm26' } },
        { name: 'plain', strategy: 'incremental', model: 'm', params: {} },
      ],
      [
        { name: 'rouge', stemmer: true },
        { name: 'gor-pairwise', judge, baseline: 'plain', maxAttempts: 3 },
      ],
    );
    expect(checkGorSpec(s)).toEqual([
      {
        path: ['systems', 1, 'engine'],
        message: 'GoR offline systems use engine "textrank" (got "lead")',
      },
      {
        path: ['systems', 2, 'params', 'retriever'],
        message:
          'unknown retriever "bm26": choose one of bm25, tfidf, lsa, dense:<embedding model>, rrf:<a>+<b>[+<c>...]',
      },
      { path: ['metrics', 1, 'baseline'], message: 'baseline "plain" is not a GoR system of this spec' },
    ]);
  });

  it('reports a baseline missing from the spec and metric scopes naming unknown or shared systems', () => {
    const s = spec(
      [
        { name: 'gor', strategy: 'gor', engine: 'textrank', params: {} },
        { name: 'rag', strategy: 'rag', engine: 'textrank', params: {} },
      ],
      [
        { name: 'rouge', stemmer: true, systems: ['nope'] },
        { name: 'rouge', stemmer: true },
        { name: 'gor-pairwise', judge, baseline: 'gone', maxAttempts: 3 },
      ],
    );
    expect(checkGorSpec(s)).toEqual([
      { path: ['metrics', 2, 'baseline'], message: 'baseline "gone" is not a GoR system of this spec' },
      { path: ['metrics', 0, 'systems'], message: 'no system named "nope" in the spec' },
    ]);
    // Two unscoped rouge metrics judge every GoR system twice.
    const twice = spec(
      [{ name: 'gor', strategy: 'gor', engine: 'textrank', params: {} }],
      [
        { name: 'rouge', stemmer: true },
        { name: 'rouge', stemmer: true },
      ],
    );
    expect(checkGorSpec(twice)).toEqual([
      {
        path: ['metrics', 1, 'systems'],
        message: 'system "gor" is already judged by metrics[0]; give each rouge metric its own systems',
      },
    ]);
  });
});
