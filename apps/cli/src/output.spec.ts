import { describe, expect, it } from '@jest/globals';
import { datasetDetails, datasetsTable, formatTable } from './output.js';
import type { DatasetView } from './runtime/ingestion-port.js';

const dataset: DatasetView = {
  id: 'id-1',
  name: 'kgds',
  kind: 'kgds',
  sourcePath: '/data/KGDS.json',
  sourceSha256: 'ab'.repeat(32),
  counts: { documents: 100, paragraphs: 1437 },
  metadata: {},
  createdAt: '2026-01-02T03:04:05.678Z',
  updatedAt: '2026-01-02T03:04:05.678Z',
  stored: { documents: 100, chunks: { paragraph: 1437, utterance: 412 }, corpusDocuments: 0 },
};

describe('output', () => {
  it('aligns table columns', () => {
    expect(formatTable(['A', 'LONG'], [['xyz', '1']])).toBe('A    LONG\nxyz  1');
  });

  it('lists datasets with their document counts', () => {
    expect(datasetsTable([dataset])).toBe(
      'NAME  KIND  DOCUMENTS  CREATED               SOURCE\n' +
        'kgds  kgds  100        2026-01-02T03:04:05Z  /data/KGDS.json',
    );
    expect(datasetsTable([])).toContain('no datasets yet');
  });

  it('shows counts and stored rows', () => {
    const text = datasetDetails(dataset);
    expect(text).toContain('  paragraphs             1437');
    expect(text).toContain('  utterance chunks       412');
  });
});
