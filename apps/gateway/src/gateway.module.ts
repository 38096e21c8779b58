import { Module } from '@nestjs/common';
import { IngestionModule } from './ingestion/ingestion.module.js';
import { RunsModule } from './runs/runs.module.js';

@Module({ imports: [IngestionModule, RunsModule] })
export class GatewayModule {}
