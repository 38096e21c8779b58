import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  API_KEY_PATTERN,
  createDataSource,
  createThrowawayDatabase,
  findApiKey,
  type ThrowawayDatabase,
} from '@precis/db';
import { assertBuilt, runCli } from './run-cli.js';

describe('precis keys', () => {
  let db: ThrowawayDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    assertBuilt();
    db = await createThrowawayDatabase('cli_keys');
    env = { DATABASE_URL: db.url };
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('creates a key printed once, lists it without the key, and removes it', async () => {
    const created = await runCli(['keys', 'create', 'ci-reader', '--scope', 'read'], env);
    expect(created.code).toBe(0);
    const key = created.stdout.trim();
    expect(key).toMatch(API_KEY_PATTERN);
    expect(created.stderr).toContain(
      `created read key ci-reader (${key.slice(0, 12)}…); it is shown only now`,
    );

    const json = await runCli(['keys', 'create', 'deployer', '--json'], env);
    const deployer = JSON.parse(json.stdout);
    expect(deployer).toMatchObject({ name: 'deployer', scope: 'write', prefix: deployer.key.slice(0, 12) });

    const ls = await runCli(['keys', 'ls', '--json'], env);
    expect(ls.code).toBe(0);
    expect(ls.stdout).not.toContain(key);
    expect(ls.stdout).not.toContain(deployer.key);
    expect(JSON.parse(ls.stdout).map((k: { name: string; scope: string }) => `${k.name}:${k.scope}`)).toEqual(
      ['ci-reader:read', 'deployer:write'],
    );
    const table = await runCli(['keys', 'ls'], env);
    expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+PREFIX\s+SCOPE\s+CREATED$/);

    const ds = await createDataSource({ url: db.url });
    try {
      expect(await findApiKey(ds, key)).toEqual({ name: 'ci-reader', scope: 'read' });
      const rm = await runCli(['keys', 'rm', 'ci-reader'], env);
      expect(rm).toMatchObject({ code: 0, stdout: 'removed key ci-reader\n' });
      expect(await findApiKey(ds, key)).toBeNull();
    } finally {
      await ds.destroy();
    }
  });

  it('refuses a duplicate name, an unknown key and a bad scope with exit code 1', async () => {
    await runCli(['keys', 'create', 'twice'], env);
    const again = await runCli(['keys', 'create', 'twice'], env);
    expect(again.code).toBe(1);
    expect(again.stderr.trim()).toBe(
      'precis: error: a key named twice already exists; remove it first or pick another name',
    );
    const missing = await runCli(['keys', 'rm', 'nobody'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe('precis: error: no key named "nobody"; see `precis keys ls`');
    const scope = await runCli(['keys', 'create', 'x', '--scope', 'admin'], env);
    expect(scope.code).toBe(1);
    expect(scope.stderr).toContain(
      "option '--scope <scope>' argument 'admin' is invalid. Allowed choices are read, write.",
    );
  });
});
