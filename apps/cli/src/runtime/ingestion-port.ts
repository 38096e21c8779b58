import type { ImportProgress, ImportStatus } from '@precis/ingest';

// What the CLI shows of a dataset, the same whether it came from the local database or a gateway.
export interface DatasetView {
  id: string;
  name: string;
  kind: string;
  sourcePath: string;
  sourceSha256: string;
  counts: Record<string, number>;
  metadata: Record<string, unknown>;
  createdAt: string | null;
  updatedAt: string | null;
  // Rows actually stored (local runtimes only).
  stored?: { documents: number; chunks: Record<string, number>; corpusDocuments: number };
}

export interface ImportRequest {
  kind: string;
  path: string;
  // The documents file of a persphere or retrieval dataset.
  documentsPath?: string;
  name: string;
  replace: boolean;
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportOutcome {
  status: ImportStatus;
  dataset: DatasetView;
}

// The ingestion operations commands delegate to: in-process (embedded/PostgreSQL) or over gRPC.
export interface IngestionPort {
  importDataset(request: ImportRequest): Promise<ImportOutcome>;
  listDatasets(filter?: { kind?: string }): Promise<DatasetView[]>;
  getDataset(name: string): Promise<DatasetView>;
}
