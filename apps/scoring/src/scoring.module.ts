import { Module } from '@nestjs/common';
import { ScoringModule } from './scoring/scoring.module.js';

@Module({ imports: [ScoringModule] })
export class ScoringAppModule {}
