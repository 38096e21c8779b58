import { Module } from '@nestjs/common';
import { RunDriver } from './run-driver.provider.js';
import { RunsController } from './runs.controller.js';
import { RunsService } from './runs.service.js';
import { CreateRunUseCase } from './usecases/create-run.usecase.js';
import { ModelPreflight } from './usecases/preflight-models.js';

@Module({
  controllers: [RunsController],
  providers: [RunDriver, RunsService, CreateRunUseCase, ModelPreflight],
  exports: [RunsService, CreateRunUseCase],
})
export class RunsModule {}
