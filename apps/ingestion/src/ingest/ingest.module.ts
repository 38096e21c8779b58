import { Module } from '@nestjs/common';
import { IngestConsumer } from './ingest.consumer.js';
import { ImportDatasetUseCase } from './usecases/import-dataset.usecase.js';

@Module({ providers: [ImportDatasetUseCase, IngestConsumer] })
export class IngestModule {}
