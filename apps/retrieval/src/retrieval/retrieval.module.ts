import { Module } from '@nestjs/common';
import { RetrievalConsumer } from './retrieval.consumer.js';

@Module({ providers: [RetrievalConsumer] })
export class RetrievalModule {}
