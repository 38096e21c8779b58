import { expect, it } from '@jest/globals';
import type { DataSource } from 'typeorm';
import {
  API_KEY_PATTERN,
  createApiKey,
  findApiKey,
  generateApiKey,
  listApiKeys,
  removeApiKey,
} from '../../src/index.js';

// API keys on one database (PostgreSQL or PGlite): stored as digests, found by key, removable.
export function apiKeySuite(getDs: () => DataSource): void {
  it('creates a key shown once, stores only its digest, finds it by key and removes it', async () => {
    const ds = getDs();
    const { key, info } = await createApiKey(ds, 'ci-reader', 'read');
    expect(key).toMatch(API_KEY_PATTERN);
    expect(info).toMatchObject({ name: 'ci-reader', scope: 'read', prefix: key.slice(0, 12) });
    // No column of any stored row holds the key (the 12-character prefix is not the key).
    const rows: { row: string }[] = await ds.query('SELECT t::text AS row FROM api_keys t');
    expect(rows.some((r) => r.row.includes(key))).toBe(false);

    expect(await findApiKey(ds, key)).toEqual({ name: 'ci-reader', scope: 'read' });
    expect(await findApiKey(ds, generateApiKey())).toBeNull();
    await expect(createApiKey(ds, 'ci-reader', 'write')).rejects.toThrow(
      'a key named ci-reader already exists; remove it first or pick another name',
    );
    expect((await listApiKeys(ds)).map((k) => `${k.name}:${k.scope}`)).toEqual(['ci-reader:read']);

    await removeApiKey(ds, 'ci-reader');
    expect(await findApiKey(ds, key)).toBeNull();
    await expect(removeApiKey(ds, 'ci-reader')).rejects.toThrow(
      'no key named "ci-reader"; see `precis keys ls`',
    );
  });

  it('refuses bad names and scopes', async () => {
    const ds = getDs();
    await expect(createApiKey(ds, 'x'.repeat(101), 'read')).rejects.toThrow(
      /^invalid key name "x{40}\.\.\.": use 1-100/,
    );
    await expect(createApiKey(ds, 'ok', 'admin' as never)).rejects.toThrow(
      'invalid scope "admin": use one of read, write',
    );
    expect(await listApiKeys(ds)).toEqual([]);
  });
}
