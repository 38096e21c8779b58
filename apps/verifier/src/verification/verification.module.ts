import { Module } from '@nestjs/common';
import { VerificationConsumer } from './verification.consumer.js';

@Module({ providers: [VerificationConsumer] })
export class VerificationModule {}
