import { describe, expect, it } from '@jest/globals';
import { ImportStatus } from '@precis/contracts';
import { toProtoDataset, toProtoImportStatus } from './dataset.mapper.js';

describe('dataset mapper', () => {
  const summary = {
    id: '6f1c0a7e-0000-4000-8000-000000000001',
    name: 'summeval',
    kind: 'summeval-op' as const,
    sourcePath: '/data/summeval-op.jsonl',
    sourceSha256: 'ab'.repeat(32),
    counts: { products: 32, reviews: 256 },
    metadata: {},
    createdAt: '2026-01-02T03:04:05.000Z',
    updatedAt: '2026-01-02T03:04:06.000Z',
  };

  it('maps a dataset summary to precis.v1.Dataset', () => {
    expect(toProtoDataset(summary)).toEqual({
      id: summary.id,
      name: 'summeval',
      kind: 'summeval-op',
      sourcePath: '/data/summeval-op.jsonl',
      sourceSha256: summary.sourceSha256,
      counts: { products: 32, reviews: 256 },
      metadataJson: '',
      createTime: new Date('2026-01-02T03:04:05.000Z'),
      updateTime: new Date('2026-01-02T03:04:06.000Z'),
    });
    expect(toProtoDataset({ ...summary, metadata: { dimensions: ['Fluency'] } }).metadataJson).toBe(
      '{"dimensions":["Fluency"]}',
    );
  });

  it('maps import statuses, unknown ones to UNSPECIFIED', () => {
    expect(toProtoImportStatus('imported')).toBe(ImportStatus.IMPORT_STATUS_IMPORTED);
    expect(toProtoImportStatus('unchanged')).toBe(ImportStatus.IMPORT_STATUS_UNCHANGED);
    expect(toProtoImportStatus('replaced')).toBe(ImportStatus.IMPORT_STATUS_REPLACED);
    expect(toProtoImportStatus('other')).toBe(ImportStatus.IMPORT_STATUS_UNSPECIFIED);
  });
});
