import { describe, expect, it } from '@jest/globals';
import { specSha256, validateSpec } from '@precis/engine';
import { parseDatasetText } from '@precis/ingest';
import { builtInFamilies } from './built-in-families.js';

describe('builtInFamilies', () => {
  it('loads the five shipped families once, in a fixed order', () => {
    expect(builtInFamilies().families.map((f) => f.name)).toEqual([
      'books',
      'opinion',
      'kgds',
      'persphere',
      'gor',
    ]);
    expect(builtInFamilies()).toBe(builtInFamilies());
  });

  it('registers every kind with its parser, in `precis ingest` order, two-file kinds with a corpus', () => {
    const kinds = [...builtInFamilies().datasetKinds.values()];
    expect(kinds.map((k) => k.name)).toEqual([
      'kgds',
      'summeval-op',
      'text',
      'jsonl',
      'persphere',
      'retrieval',
      'qmsum',
    ]);
    expect(kinds.filter((k) => k.corpus).map((k) => k.name)).toEqual(['persphere', 'retrieval']);
    expect(kinds.filter((k) => !k.parse)).toEqual([]);
  });

  it('names the two-file kinds in the --documents refusal, as `precis ingest` always did', () => {
    const kinds = builtInFamilies().datasetKinds;
    const jsonl = () =>
      parseDatasetText(
        'jsonl',
        'a.jsonl',
        '{"id":"a","text":"t"}\n',
        undefined,
        { file: 'd.jsonl', text: '' },
        kinds,
      );
    expect(jsonl).toThrow(
      'd.jsonl: --documents is only for persphere and retrieval datasets, not jsonl. Fix: drop --documents, or import the files as a persphere or retrieval dataset',
    );
  });

  // A run resumes by its spec's hash, which the parsed params' order is part of.
  it('parses systems[].params with the defaults, order and hash specs always had', () => {
    const spec = validateSpec(builtInFamilies(), {
      name: 'hash',
      datasets: [{ name: 'stored' }],
      systems: [
        {
          name: 'h',
          strategy: 'hierarchical',
          engine: 'lead',
          params: { maxTokens: 100, levelBudgets: [60] },
        },
        { name: 'o', strategy: 'opinion', engine: 'lead', params: { budgetWords: 40 } },
        { name: 'g', strategy: 'rag', engine: 'textrank', params: { k: 3, retriever: 'bm25' } },
      ],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    });
    const defaults =
      '"chunkSize":2048,"levelBudgets":[500],"runningBudget":900,"temperature":0.5,"topP":1,' +
      '"compressionTemperature":1,"maxRegenerations":3,"artifactRemoval":false,"encoding":"cl100k_base"';
    expect(spec.systems.map((s) => JSON.stringify(s.params))).toEqual([
      `{${defaults.replace('[500]', '[60]')},"maxTokens":100}`,
      `{${defaults},"budgetWords":40}`,
      `{${defaults},"retriever":"bm25","k":3}`,
    ]);
    expect(specSha256(spec)).toBe('4bb58605e0b647efe2c21a8859aab395901cc886976cb9a8e8d0333e6aa021ab');
  });
});
