import { type Dataset, ImportStatus } from '@precis/contracts';
import type { DatasetSummary } from '@precis/ingest';

export function toProtoDataset(d: DatasetSummary): Dataset {
  const hasMetadata = d.metadata && Object.keys(d.metadata).length > 0;
  return {
    id: d.id,
    name: d.name,
    kind: d.kind,
    sourcePath: d.sourcePath,
    sourceSha256: d.sourceSha256,
    counts: Object.fromEntries(Object.entries(d.counts).map(([k, v]) => [k, Number(v)])),
    metadataJson: hasMetadata ? JSON.stringify(d.metadata) : '',
    createTime: new Date(d.createdAt),
    updateTime: new Date(d.updatedAt),
  };
}

const STATUS: Record<string, ImportStatus> = {
  imported: ImportStatus.IMPORT_STATUS_IMPORTED,
  unchanged: ImportStatus.IMPORT_STATUS_UNCHANGED,
  replaced: ImportStatus.IMPORT_STATUS_REPLACED,
};

export function toProtoImportStatus(status: string): ImportStatus {
  return STATUS[status] ?? ImportStatus.IMPORT_STATUS_UNSPECIFIED;
}
