import { Global, Module } from '@nestjs/common';
import { GrpcCalls } from '../grpc/grpc-calls.js';
import { ApiKeyAuth } from './api-key-auth.js';

// Every gRPC controller runs its calls through GrpcCalls, which authenticates them first.
@Global()
@Module({ providers: [ApiKeyAuth, GrpcCalls], exports: [ApiKeyAuth, GrpcCalls] })
export class AuthModule {}
