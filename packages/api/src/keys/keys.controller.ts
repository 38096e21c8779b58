import type { Metadata } from '@grpc/grpc-js';
import { Controller, UseFilters } from '@nestjs/common';
import { GrpcExceptionFilter, GrpcMethod } from '@nestjs/microservices';
import type {
  CreateApiKeyRequest,
  CreateApiKeyResponse,
  ListApiKeysResponse,
  ApiKeyInfo as ProtoApiKeyInfo,
  RemoveApiKeyRequest,
  RemoveApiKeyResponse,
} from '@precis/contracts';
import {
  API_KEY_SCOPES,
  ApiKeyError,
  type ApiKeyInfo,
  createApiKey,
  isApiKeyScope,
  listApiKeys,
  removeApiKey,
} from '@precis/db';
import { ConflictError, InvalidInputError, NotFoundError } from '@precis/engine';
import { DataSource } from 'typeorm';
import { GrpcCalls } from '../grpc/grpc-calls.js';

const SERVICE = 'KeyService';

function toProto(info: ApiKeyInfo): ProtoApiKeyInfo {
  return { name: info.name, prefix: info.prefix, scope: info.scope, createTime: info.createdAt };
}

// A key store refusal as a domain error: the name taken, no such key, or a bad name or scope.
function keyCallError(err: unknown): unknown {
  if (!(err instanceof ApiKeyError)) return err;
  if (err.problem === 'exists') return new ConflictError(err.message, { cause: err });
  if (err.problem === 'missing') return new NotFoundError(err.message, { cause: err });
  return new InvalidInputError(err.message, {}, { cause: err });
}

async function translated<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw keyCallError(err);
  }
}

// precis.v1.KeyService: `precis keys` through a gateway (the admin key only).
@Controller()
@UseFilters(new GrpcExceptionFilter())
export class KeysController {
  constructor(
    private readonly db: DataSource,
    private readonly calls: GrpcCalls,
  ) {}

  @GrpcMethod(SERVICE, 'createApiKey')
  createApiKey(request: CreateApiKeyRequest, metadata: Metadata): Promise<CreateApiKeyResponse> {
    return this.calls.run('CreateApiKey', metadata, 'admin', async () => {
      const scope = request.scope || 'write';
      if (!isApiKeyScope(scope))
        throw new InvalidInputError(
          `invalid scope ${JSON.stringify(scope)}: use one of ${API_KEY_SCOPES.join(', ')}`,
          { field: 'scope' },
        );
      const { key, info } = await translated(createApiKey(this.db, request.name ?? '', scope));
      return { key, info: toProto(info) };
    });
  }

  @GrpcMethod(SERVICE, 'listApiKeys')
  listApiKeys(_request: unknown, metadata: Metadata): Promise<ListApiKeysResponse> {
    return this.calls.run('ListApiKeys', metadata, 'admin', async () => ({
      keys: (await listApiKeys(this.db)).map(toProto),
    }));
  }

  @GrpcMethod(SERVICE, 'removeApiKey')
  removeApiKey(request: RemoveApiKeyRequest, metadata: Metadata): Promise<RemoveApiKeyResponse> {
    return this.calls.run('RemoveApiKey', metadata, 'admin', async () => {
      await translated(removeApiKey(this.db, request.name ?? ''));
      return {};
    });
  }
}
