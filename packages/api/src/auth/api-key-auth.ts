import type { Metadata } from '@grpc/grpc-js';
import { Inject, Injectable } from '@nestjs/common';
import { GrpcPermissionDeniedException, GrpcUnauthenticatedException } from '@nestjs/microservices';
import { API_KEY_PATTERN, type ApiKeyScope, findApiKey, hashApiKey } from '@precis/db';
import { SERVICE_CONFIG } from '@precis/service';
import { DataSource } from 'typeorm';
import type { GatewayConfig } from '../config/gateway.env.js';

// What a call needs: stored keys are read or write; admin (key management) belongs only to
// PRECIS_ADMIN_KEY, which `precis serve` sets for the CLI on the same home.
export type CallScope = ApiKeyScope | 'admin';

export interface Principal {
  // The key's name (keys from PRECIS_API_KEYS are `env-key-<n>`); logged, never the key.
  name: string;
  scope: CallScope;
}

export const ADMIN_KEY_NAME = 'admin-key';

// How long a database answer about a key is reused: a removed key stops working within this.
export const KEY_CACHE_MS = 5000;
const MAX_CACHED = 10_000;

export const UNAUTHENTICATED_MESSAGE =
  'missing or invalid API key: send the metadata `authorization: Bearer <key>` ' +
  '(the CLI sends PRECIS_API_KEY); create a key with `precis keys create <name>`';

// Checks the `authorization: Bearer <key>` metadata of a gRPC call against the keys mounted in
// PRECIS_API_KEYS and those created with `precis keys create` (stored as digests).
@Injectable()
export class ApiKeyAuth {
  private readonly envKeys = new Map<string, Principal>();
  private readonly cache = new Map<string, { principal: Principal | null; until: number }>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(SERVICE_CONFIG) config: GatewayConfig,
  ) {
    (config.PRECIS_API_KEYS ?? []).forEach((key, i) => {
      this.envKeys.set(hashApiKey(key), { name: `env-key-${i + 1}`, scope: 'write' });
    });
    if (config.PRECIS_ADMIN_KEY)
      this.envKeys.set(hashApiKey(config.PRECIS_ADMIN_KEY), { name: ADMIN_KEY_NAME, scope: 'admin' });
  }

  async authenticate(metadata: Metadata | undefined, needs: CallScope): Promise<Principal> {
    const header = metadata?.get('authorization')[0];
    const principal = await this.principal(typeof header === 'string' ? header : undefined);
    if (!principal) throw new GrpcUnauthenticatedException(UNAUTHENTICATED_MESSAGE);
    const refused = scopeRefusal(principal, needs);
    if (refused) throw new GrpcPermissionDeniedException(refused);
    return principal;
  }

  // The key an `Authorization: Bearer <key>` header (gRPC metadata or HTTP) names, if it is one.
  async principal(authorization: string | undefined): Promise<Principal | null> {
    const key = bearerKey(authorization);
    return key ? this.lookup(key) : null;
  }

  private async lookup(key: string): Promise<Principal | null> {
    const digest = hashApiKey(key);
    const fromEnv = this.envKeys.get(digest);
    if (fromEnv) return fromEnv;
    const now = Date.now();
    const cached = this.cache.get(digest);
    if (cached && cached.until > now) return cached.principal;
    const principal = await findApiKey(this.dataSource, key);
    // Unknown keys are cached too, so guessing costs no database query per attempt.
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    this.cache.set(digest, { principal, until: now + KEY_CACHE_MS });
    return principal;
  }
}

const RANK: Record<CallScope, number> = { read: 0, write: 1, admin: 2 };

// Why a key may not make a call that needs `needs`, or null when it may.
export function scopeRefusal(principal: Principal, needs: CallScope): string | null {
  if (RANK[principal.scope] >= RANK[needs]) return null;
  if (needs === 'admin')
    return `API key ${principal.name} has scope ${principal.scope}; managing keys needs the admin key (PRECIS_ADMIN_KEY on the gateway)`;
  return `API key ${principal.name} has scope ${principal.scope}; this call needs a write key (\`precis keys create <name> --scope write\`)`;
}

function bearerKey(value: string | undefined): string | null {
  if (typeof value !== 'string') return null;
  const match = /^Bearer\s+(\S+)$/i.exec(value.trim());
  return match && API_KEY_PATTERN.test(match[1]!) ? match[1]! : null;
}
