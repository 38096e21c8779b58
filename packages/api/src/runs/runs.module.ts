import { Module } from '@nestjs/common';
import { RunDriver } from './run-driver.provider.js';
import { RunsController } from './runs.controller.js';
import { RunsService } from './runs.service.js';
import { TranscriptsController } from './transcripts.controller.js';
import { TranscriptsService } from './transcripts.service.js';
import { CreateRunUseCase } from './usecases/create-run.usecase.js';
import { ModelPreflight } from './usecases/preflight-models.js';

@Module({
  controllers: [RunsController, TranscriptsController],
  providers: [RunDriver, RunsService, TranscriptsService, CreateRunUseCase, ModelPreflight],
  exports: [RunsService, TranscriptsService, CreateRunUseCase],
})
export class RunsModule {}
