import { Module } from '@nestjs/common';
import { STAGE_QUEUES, StageConsumer } from '@precis/service';
import { VERIFICATION_STAGES } from './verification.handlers.js';

@Module({ providers: [{ provide: STAGE_QUEUES, useValue: VERIFICATION_STAGES }, StageConsumer] })
export class VerificationModule {}
