import { Module } from '@nestjs/common';
import { RunDriver } from './run-driver.provider.js';
import { RunsController } from './runs.controller.js';
import { RunsService } from './runs.service.js';
import { SamplesController } from './samples.controller.js';
import { SamplesService } from './samples.service.js';
import { TranscriptsController } from './transcripts.controller.js';
import { TranscriptsService } from './transcripts.service.js';
import { CreateRunUseCase } from './usecases/create-run.usecase.js';
import { ModelPreflight } from './usecases/preflight-models.js';

@Module({
  controllers: [RunsController, TranscriptsController, SamplesController],
  providers: [RunDriver, RunsService, TranscriptsService, SamplesService, CreateRunUseCase, ModelPreflight],
  exports: [RunsService, TranscriptsService, SamplesService, CreateRunUseCase],
})
export class RunsModule {}
