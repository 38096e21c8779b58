import { describe, expect, it } from '@jest/globals';
import { CORPUS_KINDS, DATASET_KINDS } from '@precis/ingest';
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

  it('registers every kind the importers read, in their order, two-file kinds with a corpus', () => {
    const kinds = [...builtInFamilies().datasetKinds.values()];
    expect(kinds.map((k) => k.name)).toEqual([...DATASET_KINDS]);
    expect(kinds.filter((k) => k.corpus).map((k) => k.name)).toEqual([...CORPUS_KINDS]);
  });
});
