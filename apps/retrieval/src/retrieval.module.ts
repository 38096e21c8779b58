import { Module } from '@nestjs/common';
import { RetrievalModule } from './retrieval/retrieval.module.js';

@Module({ imports: [RetrievalModule] })
export class RetrievalAppModule {}
