import { Module } from '@nestjs/common';
import { SummarizationModule } from './summarization/summarization.module.js';

@Module({ imports: [SummarizationModule] })
export class SummarizationAppModule {}
