import { Module } from '@nestjs/common';
import { ScoringConsumer } from './scoring.consumer.js';

@Module({ providers: [ScoringConsumer] })
export class ScoringModule {}
