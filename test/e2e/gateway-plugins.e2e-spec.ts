// Summarizer plugin addresses in submitted specs: the gateway and `precis serve` take only those
// their PRECIS_PLUGIN_ADDRESSES lists (none when unset), refusing the others over REST and gRPC
// before any connection is made or any run is written.
// Needs the build: `npx turbo run build` (the gateway and the CLI run from dist).
import { realpathSync } from 'node:fs';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateRunRequest } from '@precis/contracts';
import { startServe } from '../browser/serve-support.js';
import { connectionCounter, listenLocal } from '../support/plugins.js';
import { answer, authorized, type GatewayStack, startGatewayStack } from './gateway-support.js';
import { repoRoot } from './runs-support.js';

const ALLOWED = '127.0.0.1:50170,*.plugins.internal:*';

const spec = (address: string) => ({
  name: 'plugin-policy',
  datasets: [{ name: 'story', kind: 'text', path: 'examples/data/the-lighthouse-keeper.md' }],
  systems: [
    { name: 'lead', strategy: 'hierarchical', engine: 'lead' },
    { name: 'plugin', strategy: 'hierarchical', plugin: { address } },
  ],
  metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
});

const refusal = (address: string) =>
  `<CreateRun spec>: invalid benchmark spec\n  - systems[1].plugin.address: plugin address ${address} is not allowed on this server; the operator lists allowed ones in PRECIS_PLUGIN_ADDRESSES`;

async function post(base: string, key: string, body: unknown) {
  const res = await fetch(`${base}/api/v1/runs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read JSON bodies field by field
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe('plugin addresses at the gateway', () => {
  let stack: GatewayStack;
  let base: string;
  // A listening port the spec names: a connection to it would be seen.
  const watch = connectionCounter();
  let watched: string;

  const runRows = async () => Number((await stack.db.query('SELECT COUNT(*) AS n FROM runs'))[0].n);

  beforeAll(async () => {
    watched = await listenLocal(watch.server);
    stack = await startGatewayStack({
      name: 'plugins',
      env: { INGEST_ROOT: realpathSync(repoRoot), PRECIS_PLUGIN_ADDRESSES: ALLOWED },
    });
    base = `http://127.0.0.1:${stack.gateway.httpPort}`;
  }, 120_000);

  afterAll(async () => {
    watch.server.close();
    await stack?.stop();
  });

  it('refuses an unlisted address over REST with 400 naming the setting; no run is written', async () => {
    const refused = await post(base, stack.key, { spec: spec(watched) });
    expect([refused.status, refused.body.error]).toEqual([400, refusal(watched)]);
    const probe = await post(base, stack.key, { spec: spec('127.0.0.1:55432') });
    expect([probe.status, probe.body.error]).toEqual([400, refusal('127.0.0.1:55432')]);
    expect([await runRows(), watch.accepted()]).toEqual([0, 0]);
  });

  it('refuses an unlisted address over gRPC with INVALID_ARGUMENT; no run is written', async () => {
    const request = CreateRunRequest.fromPartial({ specJson: JSON.stringify(spec(watched)), fresh: true });
    const got = await answer(authorized(stack.key), (md, o, cb) => stack.runs.createRun(request, md, o, cb));
    expect(got).toEqual({ code: status.INVALID_ARGUMENT, details: refusal(watched) });
    expect([await runRows(), watch.accepted()]).toEqual([0, 0]);
  });

  it('creates the run when a pattern allows the address', async () => {
    for (const [i, address] of ['127.0.0.1:50170', 'Summarizer.Plugins.Internal:9000'].entries()) {
      const created = await post(base, stack.key, { spec: { ...spec(address), name: `allowed-${i}` } });
      expect([created.status, created.body.run?.name]).toEqual([201, `allowed-${i}`]);
    }
    expect(await runRows()).toBe(2);
  });
});

describe('precis serve without PRECIS_PLUGIN_ADDRESSES', () => {
  it('refuses every plugin address: summarizer plugins are off', async () => {
    const served = await startServe({ INGEST_ROOT: realpathSync(repoRoot) });
    try {
      const off = await post(served.base, served.key, { spec: spec('127.0.0.1:50170') });
      expect([off.status, off.body.error]).toEqual([
        400,
        '<CreateRun spec>: invalid benchmark spec\n  - systems[1].plugin.address: plugin address 127.0.0.1:50170 is not allowed on this server; summarizer plugins are off (the operator allows addresses in PRECIS_PLUGIN_ADDRESSES)',
      ]);
      const runs = await fetch(`${served.base}/api/v1/runs`, {
        headers: { authorization: `Bearer ${served.key}` },
      });
      expect(await runs.json()).toEqual({ runs: [], nextPageToken: '' });
    } finally {
      expect(await served.stop()).toBe(0);
    }
  }, 120_000);
});
