import { Module } from '@nestjs/common';
import { AuthModule } from './auth/auth.module.js';
import { IngestionModule } from './ingestion/ingestion.module.js';
import { KeysModule } from './keys/keys.module.js';
import { RestModule } from './rest/rest.module.js';
import { RunsModule } from './runs/runs.module.js';

@Module({ imports: [AuthModule, IngestionModule, KeysModule, RunsModule, RestModule] })
export class GatewayModule {}
