import { Module } from '@nestjs/common';
import { IngestionService } from '../ingestion/ingestion.service.js';
import { RunsService } from '../runs/runs.service.js';
import { OpenApiController, RestController } from './rest.controller.js';
import { RestKeyGuard } from './rest-auth.guard.js';

@Module({
  controllers: [RestController, OpenApiController],
  providers: [RestKeyGuard, RunsService, IngestionService],
})
export class RestModule {}
