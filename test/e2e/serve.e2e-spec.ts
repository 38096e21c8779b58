// `precis serve` as a user starts it: embedded with its first key, again without a new key,
// as the cluster gateway with DATABASE_URL and NATS_URL (keys managed with its admin key), and
// refused with only one of them.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createThrowawayDatabase, type ThrowawayDatabase } from '@precis/db';
import { runCli } from '../../apps/cli/test/run-cli.js';
import { newKey, startServe } from '../browser/serve-support.js';
import { deleteBusStreams, natsUrl, tempDir, waitFor } from './runs-support.js';

const PREFIX = `serve_${process.pid}`;

const runs = async (base: string, key: string) => {
  const res = await fetch(`${base}/api/v1/runs`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, body: (await res.json()) as { runs?: unknown[]; error?: string } };
};

describe('precis serve', () => {
  const home = tempDir('precis-serve-home-');
  let tdb: ThrowawayDatabase;

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('serve_cluster');
  });

  afterAll(async () => {
    home.remove();
    await tdb?.drop();
    await deleteBusStreams(PREFIX);
  });

  it('creates and prints a first write key on an empty embedded database, and only then', async () => {
    const first = await startServe({}, { key: false, home: home.dir });
    // Printed right after the listen line, once the key is stored.
    const printed = await waitFor(
      'the first key',
      async () =>
        /created write key "serve" \(shown only now; the page asks for it\): (precis_\S+)/.exec(
          first.output(),
        ),
      10_000,
    );
    expect(await runs(first.base, printed![1]!)).toEqual({
      status: 200,
      body: { runs: [], nextPageToken: '' },
    });
    expect((await runs(first.base, 'precis_wrong')).status).toBe(401);
    expect(await first.stop()).toBe(0);

    const again = await startServe({}, { key: false, home: home.dir });
    expect(again.output()).not.toContain('created write key');
    expect((await runs(again.base, printed![1]!)).status).toBe(200);
    expect(await again.stop()).toBe(0);
  }, 120_000);

  it('is the cluster gateway with DATABASE_URL and NATS_URL', async () => {
    const admin = newKey();
    const gw = await startServe({
      DATABASE_URL: tdb.url,
      NATS_URL: natsUrl,
      PRECIS_BUS_PREFIX: 'serve_cluster',
      PRECIS_ADMIN_KEY: admin,
    });
    expect(gw.output()).not.toContain('created write key');
    const ready = (await (await fetch(`${gw.base}/health/ready`)).json()) as { status: string };
    expect(ready.status).toBe('ok');
    expect((await runs(gw.base, gw.key)).body).toEqual({ runs: [], nextPageToken: '' });
    // Keys are managed through the gateway with its admin key only.
    const remoteKeys = (args: string[], key: string) =>
      runCli(['--remote', gw.grpcAddress, 'keys', ...args], { PRECIS_API_KEY: key });
    const bob = await remoteKeys(['create', 'bob', '--scope', 'read'], admin);
    expect(bob.code).toBe(0);
    expect((await runs(gw.base, bob.stdout.trim())).status).toBe(200);
    expect((await remoteKeys(['ls'], admin)).stdout).toMatch(
      /^NAME +PREFIX +SCOPE +CREATED\nbob +precis_\S+ +read /,
    );
    expect(await remoteKeys(['ls'], gw.key)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        'API key env-key-1 has scope write; managing keys needs the admin key (PRECIS_ADMIN_KEY on the gateway)',
      ),
    });
    expect(await remoteKeys(['rm', 'carol'], admin)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('no key named "carol"; see `precis keys ls`'),
    });
    expect((await remoteKeys(['rm', 'bob'], admin)).stdout).toBe('removed key bob\n');
    expect(await gw.stop()).toBe(0);
  }, 120_000);

  it('refuses DATABASE_URL without NATS_URL, naming both', async () => {
    const r = await runCli(['serve'], { DATABASE_URL: tdb.url, NATS_URL: '' });
    expect([r.code, r.stderr]).toEqual([
      1,
      'precis: error: DATABASE_URL is set but NATS_URL is not: set both to serve as the cluster gateway, or neither to serve the embedded database\n',
    ]);
  });
});
