import { Module } from '@nestjs/common';
import { VerificationModule } from './verification/verification.module.js';

@Module({ imports: [VerificationModule] })
export class VerifierAppModule {}
