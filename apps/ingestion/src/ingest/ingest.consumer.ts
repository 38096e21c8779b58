import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { type StageWorker, StageWorkerFactory } from '@precis/service';
import { ImportDatasetUseCase } from './usecases/import-dataset.usecase.js';

// Pulls the ingest stage queue. Stops pulling first on shutdown; in-flight imports finish and ack.
@Injectable()
export class IngestConsumer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly worker: StageWorker;

  constructor(workers: StageWorkerFactory, importDataset: ImportDatasetUseCase) {
    this.worker = workers.create('ingest', [importDataset]);
  }

  onApplicationBootstrap(): Promise<void> {
    return this.worker.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.worker.stop();
  }
}
