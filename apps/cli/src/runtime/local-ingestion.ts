import { loadedFamilies } from '@precis/families';
import type { FileAccessPolicy } from '@precis/files';
import { type DatasetKindTable, getDatasetSummary, importDataset, listDatasets } from '@precis/ingest';
import type { DataSource } from 'typeorm';
import type { DatasetView, ImportOutcome, ImportRequest, IngestionPort } from './ingestion-port.js';

// Runs the ingest use cases in this process against the given database.
export class LocalIngestion implements IngestionPort {
  constructor(
    private readonly ds: DataSource,
    private readonly access?: FileAccessPolicy,
    // The dataset kinds the loaded families register, with their parsers.
    private readonly kinds: DatasetKindTable = loadedFamilies().datasetKinds,
  ) {}

  async importDataset(request: ImportRequest): Promise<ImportOutcome> {
    const result = await importDataset(this.ds, { ...request, kinds: this.kinds, access: this.access });
    return { status: result.status, dataset: result.dataset };
  }

  listDatasets(filter: { kind?: string } = {}): Promise<DatasetView[]> {
    return listDatasets(this.ds, filter, this.kinds);
  }

  getDataset(name: string): Promise<DatasetView> {
    return getDatasetSummary(this.ds, name, this.kinds);
  }
}
