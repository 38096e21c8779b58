import { Module } from '@nestjs/common';
import { JOB_HANDLERS, STAGE_QUEUES, StageConsumer } from '@precis/service';
import { ImportDatasetUseCase } from './usecases/import-dataset.usecase.js';

// The ingest stage queue, whose one job is the dataset import.
@Module({
  providers: [
    ImportDatasetUseCase,
    { provide: STAGE_QUEUES, useValue: ['ingest'] },
    {
      provide: JOB_HANDLERS,
      useFactory: (importDataset: ImportDatasetUseCase) => [importDataset],
      inject: [ImportDatasetUseCase],
    },
    StageConsumer,
  ],
})
export class IngestModule {}
