import { Module } from '@nestjs/common';
import { RUN_STAGES, RunStageConsumer } from '@precis/service';
import { VERIFICATION_STAGES } from './verification.handlers.js';

@Module({ providers: [{ provide: RUN_STAGES, useValue: VERIFICATION_STAGES }, RunStageConsumer] })
export class VerificationModule {}
