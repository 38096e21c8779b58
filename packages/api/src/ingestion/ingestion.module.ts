import { Module } from '@nestjs/common';
import { IngestionController } from './ingestion.controller.js';
import { IngestionService } from './ingestion.service.js';
import { TaskCompletions } from './task-completions.provider.js';
import { ImportDatasetUseCase } from './usecases/import-dataset.usecase.js';

@Module({
  controllers: [IngestionController],
  providers: [IngestionService, ImportDatasetUseCase, TaskCompletions],
  exports: [IngestionService, ImportDatasetUseCase],
})
export class IngestionModule {}
