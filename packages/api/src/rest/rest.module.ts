import { Module } from '@nestjs/common';
import { IngestionModule } from '../ingestion/ingestion.module.js';
import { RunsModule } from '../runs/runs.module.js';
import { OpenApiController, RestController } from './rest.controller.js';
import { RestKeyGuard } from './rest-auth.guard.js';
import { SamplesRestController } from './samples-rest.controller.js';
import { TranscriptsRestController } from './transcripts-rest.controller.js';
import { WebPageController } from './web-page.controller.js';

// The REST API over the same services and use cases as the gRPC API, and the web page on it.
@Module({
  imports: [RunsModule, IngestionModule],
  controllers: [
    RestController,
    TranscriptsRestController,
    SamplesRestController,
    OpenApiController,
    WebPageController,
  ],
  providers: [RestKeyGuard],
})
export class RestModule {}
