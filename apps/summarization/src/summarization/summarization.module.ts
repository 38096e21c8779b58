import { Module } from '@nestjs/common';
import { SummarizationConsumer } from './summarization.consumer.js';

@Module({ providers: [SummarizationConsumer] })
export class SummarizationModule {}
