import { Injectable } from '@nestjs/common';
import { StageWorkerFactory, StageWorkers } from '@precis/service';
import { ImportDatasetUseCase } from './usecases/import-dataset.usecase.js';

// Pulls the ingest stage queue, for the application's lifetime (see StageWorkers).
@Injectable()
export class IngestConsumer extends StageWorkers {
  constructor(workers: StageWorkerFactory, importDataset: ImportDatasetUseCase) {
    super([workers.create('ingest', [importDataset])]);
  }
}
