import { Module } from '@nestjs/common';
import { JOB_HANDLERS, STAGE_QUEUES, StageConsumer } from '../runs/stage-consumer.js';
import { ImportDatasetJob } from './import-dataset.job.js';

// The ingest stage queue, whose one job is the dataset import.
@Module({
  providers: [
    ImportDatasetJob,
    { provide: STAGE_QUEUES, useValue: ['ingest'] },
    {
      provide: JOB_HANDLERS,
      useFactory: (importDataset: ImportDatasetJob) => [importDataset],
      inject: [ImportDatasetJob],
    },
    StageConsumer,
  ],
})
export class IngestJobModule {}
