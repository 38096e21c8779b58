// The gateway's front door: every gRPC method needs an API key (from PRECIS_API_KEYS or created
// with `precis keys create`), read keys cannot change anything, removed keys stop working, and the
// gRPC port can serve TLS. Needs the build: `npx turbo run build`.

import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey, generateApiKey, removeApiKey } from '@precis/db';
import { remoteAccess } from '../../apps/cli/src/runtime/remote-access.js';
import { RemoteRuns } from '../../apps/cli/src/runtime/remote-runs.js';
import { freePort, startService, waitReady } from '../../packages/service/test/support/service-process.js';
import { type GatewayStack, startGatewayStack } from './gateway-support.js';
import { repoRoot, tempDir, waitFor } from './runs-support.js';

const UNAUTHENTICATED =
  'missing or invalid API key: send the metadata `authorization: Bearer <key>` (the CLI sends PRECIS_API_KEY); create a key with `precis keys create <name>`';

type Call = (md: Metadata) => Promise<unknown>;

function grpcCall(invoke: (md: Metadata, cb: (err: ServiceError | null) => void) => unknown): Call {
  return (md) =>
    new Promise((ok, fail) => {
      invoke(md, (err) => (err ? fail(err) : ok(undefined)));
    });
}

function bearer(key: string | null): Metadata {
  const md = new Metadata();
  if (key) md.set('authorization', `Bearer ${key}`);
  return md;
}

async function codeOf(call: Call, md: Metadata): Promise<{ code: number; details: string }> {
  try {
    await call(md);
    return { code: status.OK, details: '' };
  } catch (err) {
    return { code: (err as ServiceError).code, details: (err as ServiceError).details };
  }
}

// Every method of the gateway, called with the given metadata.
function everyMethod(stack: GatewayStack): Record<string, Call> {
  const { runs, ingestion } = stack;
  const spec = JSON.stringify({ name: 'x', datasets: [], systems: [], metrics: [] });
  return {
    ImportDataset: grpcCall((md, cb) =>
      ingestion.importDataset(
        { kind: 'text', path: '/etc/hostname', datasetName: 'x', replace: false },
        md,
        cb,
      ),
    ),
    ListDatasets: grpcCall((md, cb) =>
      ingestion.listDatasets({ kind: '', pageSize: 0, pageToken: '' }, md, cb),
    ),
    GetDataset: grpcCall((md, cb) => ingestion.getDataset({ name: 'x' }, md, cb)),
    CreateRun: grpcCall((md, cb) =>
      runs.createRun({ specJson: spec, fresh: false, skipPreflight: false }, md, cb),
    ),
    GetRun: grpcCall((md, cb) => runs.getRun({ runId: 'x' }, md, cb)),
    ListRuns: grpcCall((md, cb) =>
      runs.listRuns({ status: 0, limit: 1, pageSize: 0, pageToken: '' }, md, cb),
    ),
    CancelRun: grpcCall((md, cb) => runs.cancelRun({ runId: 'x', reason: '' }, md, cb)),
  };
}

describe('gateway authentication', () => {
  const tmp = tempDir('precis-auth-');
  let stack: GatewayStack;
  let envKey: string;
  let methods: Record<string, Call>;

  beforeAll(async () => {
    stack = await startGatewayStack({ name: 'gateway_auth' });
    envKey = stack.key;
    methods = everyMethod(stack);
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
    tmp.remove();
  }, 30_000);

  it('refuses every method without a key, with a malformed key and with an unknown key', async () => {
    for (const key of [null, 'hunter2', generateApiKey()]) {
      for (const [name, call] of Object.entries(methods)) {
        expect({ name, ...(await codeOf(call, bearer(key))) }).toEqual({
          name,
          code: status.UNAUTHENTICATED,
          details: UNAUTHENTICATED,
        });
      }
    }
    // The gateway's log lines come through its stdout pipe, possibly after the replies.
    const refusedLines = () => stack.gateway.logs.filter((l) => l.msg === 'gRPC ListRuns UNAUTHENTICATED');
    await waitFor('the refusals in the log', async () => refusedLines().length >= 3, 5_000);
    expect(refusedLines()).toHaveLength(3);
  });

  it('lets a read key list and show, but not create, cancel or import', async () => {
    const { key } = await createApiKey(stack.db, 'reader', 'read');
    const md = bearer(key);
    expect((await codeOf(methods.ListRuns!, md)).code).toBe(status.OK);
    expect((await codeOf(methods.ListDatasets!, md)).code).toBe(status.OK);
    expect((await codeOf(methods.GetRun!, md)).code).toBe(status.NOT_FOUND);
    for (const name of ['CreateRun', 'CancelRun', 'ImportDataset']) {
      expect({ name, ...(await codeOf(methods[name]!, md)) }).toEqual({
        name,
        code: status.PERMISSION_DENIED,
        details:
          'API key reader has scope read; this call needs a write key (`precis keys create <name> --scope write`)',
      });
    }
  });

  it('accepts the key mounted in PRECIS_API_KEYS and logs its name, never the key', async () => {
    const okLines = () => stack.gateway.logs.filter((l) => l.msg === 'gRPC ListRuns OK');
    const before = okLines().length;
    expect((await codeOf(methods.ListRuns!, bearer(envKey))).code).toBe(status.OK);
    // The line arrives through the gateway's stdout pipe, possibly after the reply.
    const line = await waitFor('the call in the log', async () => okLines()[before], 5_000);
    expect(line.key).toBe('env-key-1');
    const all = stack.gateway.logs.map((l) => JSON.stringify(l)).join('\n') + stack.gateway.stderr();
    expect(all).not.toContain(envKey);
  });

  it('stops accepting a removed key within seconds', async () => {
    const { key } = await createApiKey(stack.db, 'short-lived', 'write');
    expect((await codeOf(methods.ListRuns!, bearer(key))).code).toBe(status.OK);
    await removeApiKey(stack.db, 'short-lived');
    await waitFor(
      'the removed key to be refused',
      async () => (await codeOf(methods.ListRuns!, bearer(key))).code === status.UNAUTHENTICATED,
      15_000,
      250,
    );
  });

  it('refuses to start with a malformed PRECIS_API_KEYS entry, without printing it', async () => {
    const proc = startService(repoRoot, 'gateway', { PRECIS_API_KEYS: `${envKey},not-a-key-Secret123` });
    expect((await proc.exited).code).toBe(1);
    const line = proc.stderr().trim();
    expect(line).toContain(
      'PRECIS_API_KEYS=<redacted> entry 2 of 2 is not Precis API keys (precis_ and 43 characters, from `precis keys create`)',
    );
    expect(line).not.toContain('not-a-key-Secret123');
    expect(line).not.toContain(envKey);
  });

  it('serves TLS when GRPC_TLS_CERT and GRPC_TLS_KEY are set', async () => {
    const cert = join(tmp.dir, 'cert.pem');
    const key = join(tmp.dir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        key,
        '-out',
        cert,
      ],
      { stdio: 'ignore' },
    );
    const port = await freePort();
    const tls = startService(repoRoot, 'gateway', {
      ...stack.common,
      HTTP_PORT: String(await freePort()),
      GRPC_PORT: String(port),
      PRECIS_API_KEYS: envKey,
      GRPC_TLS_CERT: cert,
      GRPC_TLS_KEY: key,
    });
    try {
      await waitReady(tls);
      const secure = new RemoteRuns(
        `127.0.0.1:${port}`,
        remoteAccess({ PRECIS_API_KEY: envKey, PRECIS_TLS_CA: cert }),
      );
      expect(await secure.listRuns()).toEqual([]);
      secure.close();
      const plain = new RemoteRuns(`127.0.0.1:${port}`, remoteAccess({ PRECIS_API_KEY: envKey }));
      await expect(plain.listRuns()).rejects.toThrow(`cannot reach the gateway at 127.0.0.1:${port}`);
      plain.close();
    } finally {
      await tls.stop('SIGKILL');
    }
  }, 60_000);
});
