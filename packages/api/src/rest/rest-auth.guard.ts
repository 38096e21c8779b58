import {
  type CanActivate,
  type ExecutionContext,
  ForbiddenException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { ApiKeyScope } from '@precis/db';
import { ApiKeyAuth, scopeRefusal } from '../auth/api-key-auth.js';

const SCOPE = 'precis:rest-scope';
// A route that changes something needs a write key; every other /api/v1 route a read key.
export const NeedsWrite = () => SetMetadata(SCOPE, 'write');

export const REST_UNAUTHENTICATED =
  'missing or invalid API key: send the header `Authorization: Bearer <key>`; create a key with `precis keys create <name>`';

// The REST API's key check, the same keys as gRPC (PRECIS_API_KEYS or `precis keys create`).
@Injectable()
export class RestKeyGuard implements CanActivate {
  constructor(
    private readonly auth: ApiKeyAuth,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string | undefined> }>();
    const principal = await this.auth.principal(req.headers.authorization);
    if (!principal) throw new UnauthorizedException(REST_UNAUTHENTICATED);
    const needs = this.reflector.get<ApiKeyScope | undefined>(SCOPE, context.getHandler()) ?? 'read';
    const refused = scopeRefusal(principal, needs);
    if (refused) throw new ForbiddenException(refused);
    return true;
  }
}
