import { createHash, randomBytes } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ApiKeyEntity, type ApiKeyScope } from './entities/api-key.entity.js';

// `precis_` and 32 random bytes in base64url: 256 bits, so a plain SHA-256 of the key is a safe
// stored form (no salt or slow hash is needed against guessing a random key).
export const API_KEY_PATTERN = /^precis_[A-Za-z0-9_-]{43}$/;
export const API_KEY_SCOPES: readonly ApiKeyScope[] = ['read', 'write'];
const KEY_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
const PREFIX_LENGTH = 12;

// invalid: a bad name or scope; exists: the name is taken; missing: no key has the name.
export type ApiKeyProblem = 'invalid' | 'exists' | 'missing';

export class ApiKeyError extends Error {
  constructor(
    message: string,
    readonly problem: ApiKeyProblem = 'invalid',
  ) {
    super(message);
    this.name = 'ApiKeyError';
  }
}

export interface ApiKeyInfo {
  name: string;
  prefix: string;
  scope: ApiKeyScope;
  createdAt: Date;
}

export function generateApiKey(): string {
  return `precis_${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function isApiKeyScope(value: string): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly string[]).includes(value);
}

function info(row: ApiKeyEntity): ApiKeyInfo {
  return { name: row.name, prefix: row.prefix, scope: row.scope, createdAt: row.createdAt };
}

// Creates a key and returns it: the only time it exists outside the caller's hands.
export async function createApiKey(
  ds: DataSource,
  name: string,
  scope: ApiKeyScope,
): Promise<{ key: string; info: ApiKeyInfo }> {
  if (!KEY_NAME.test(name))
    throw new ApiKeyError(
      `invalid key name ${JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}...` : name)}: use 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  if (!isApiKeyScope(scope))
    throw new ApiKeyError(`invalid scope ${JSON.stringify(scope)}: use one of ${API_KEY_SCOPES.join(', ')}`);
  const key = generateApiKey();
  const inserted = await ds
    .createQueryBuilder()
    .insert()
    .into(ApiKeyEntity)
    .values({ name, scope, keySha256: hashApiKey(key), prefix: key.slice(0, PREFIX_LENGTH) })
    .orIgnore()
    .returning('*')
    .execute();
  if (inserted.raw.length === 0)
    throw new ApiKeyError(
      `a key named ${name} already exists; remove it first or pick another name`,
      'exists',
    );
  const row = await ds.getRepository(ApiKeyEntity).findOneByOrFail({ name });
  return { key, info: info(row) };
}

export async function listApiKeys(ds: DataSource): Promise<ApiKeyInfo[]> {
  const rows = await ds.getRepository(ApiKeyEntity).find({ order: { createdAt: 'ASC', name: 'ASC' } });
  return rows.map(info);
}

export async function removeApiKey(ds: DataSource, name: string): Promise<void> {
  const result = await ds.getRepository(ApiKeyEntity).delete({ name });
  if (!result.affected)
    throw new ApiKeyError(
      `no key named ${JSON.stringify(name.slice(0, 100))}; see \`precis keys ls\``,
      'missing',
    );
}

// The key's name and scope, or null when no stored key has this digest.
export async function findApiKey(
  ds: DataSource,
  key: string,
): Promise<{ name: string; scope: ApiKeyScope } | null> {
  const row = await ds.getRepository(ApiKeyEntity).findOneBy({ keySha256: hashApiKey(key) });
  return row ? { name: row.name, scope: row.scope } : null;
}
