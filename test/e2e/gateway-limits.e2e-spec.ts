// Bounded answers and requests at the gateway: lists are paginated (a page can never approach the
// gRPC message limit, even over runs stored with 1 MB names), oversized requests and ids are
// refused, and waiting imports are capped. Needs the build: `npx turbo run build`.

import { randomBytes } from 'node:crypto';
import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { IngestionServiceClient, ListRunsResponse, type Run, RunServiceClient } from '@precis/contracts';
import {
  createDataSource,
  createThrowawayDatabase,
  generateApiKey,
  RunEntity,
  type ThrowawayDatabase,
} from '@precis/db';
import type { DataSource } from 'typeorm';
import { runCli } from '../../apps/cli/test/run-cli.js';
import {
  freePort,
  type ServiceProcess,
  startService,
  waitReady,
} from '../../packages/service/test/support/service-process.js';
import { deleteBusStreams, natsUrl, repoRoot, tempDir } from './runs-support.js';

const KEY = generateApiKey();

function authorized(): Metadata {
  const md = new Metadata();
  md.set('authorization', `Bearer ${KEY}`);
  return md;
}

type Answer<T> = { code: number; details: string; value?: T };

function answer<T>(
  invoke: (md: Metadata, opts: { deadline: Date }, cb: (e: ServiceError | null, v: T) => void) => unknown,
) {
  return new Promise<Answer<T>>((done) => {
    invoke(authorized(), { deadline: new Date(Date.now() + 20_000) }, (e, v) =>
      done(e ? { code: e.code, details: e.details } : { code: status.OK, details: '', value: v }),
    );
  });
}

describe('gateway limits', () => {
  const prefix = `e2e_limits_${randomBytes(4).toString('hex')}`;
  const tmp = tempDir('precis-limits-');
  let tdb: ThrowawayDatabase;
  let db: DataSource;
  let gateway: ServiceProcess;
  let runs: RunServiceClient;
  let ingestion: IngestionServiceClient;
  let address: string;

  const listRuns = (pageSize: number, pageToken = '') =>
    answer<ListRunsResponse>((md, o, cb) =>
      runs.listRuns({ status: 0, limit: 0, pageSize, pageToken }, md, o, cb),
    );

  beforeAll(async () => {
    tdb = await createThrowawayDatabase('e2e_gateway_limits');
    db = await createDataSource({ url: tdb.url, runMigrations: true });
    const port = await freePort();
    gateway = startService(repoRoot, 'gateway', {
      DATABASE_URL: tdb.url,
      DATABASE_RUN_MIGRATIONS: 'false',
      NATS_URL: natsUrl,
      PRECIS_BUS_PREFIX: prefix,
      HTTP_HOST: '127.0.0.1',
      HTTP_PORT: String(await freePort()),
      GRPC_PORT: String(port),
      PRECIS_API_KEYS: KEY,
      INGEST_ROOT: tmp.dir,
      // No ingestion service runs: an import waits until this timeout.
      INGEST_TIMEOUT_MS: '3000',
      IMPORT_MAX_IN_FLIGHT: '1',
    });
    await waitReady(gateway);
    address = `127.0.0.1:${port}`;
    runs = new RunServiceClient(address, credentials.createInsecure());
    ingestion = new IngestionServiceClient(`127.0.0.1:${port}`, credentials.createInsecure());
  }, 60_000);

  afterAll(async () => {
    runs?.close();
    ingestion?.close();
    await gateway?.stop('SIGKILL');
    await db?.destroy();
    await tdb?.drop();
    await deleteBusStreams(prefix).catch(() => {});
    tmp.remove();
  }, 30_000);

  it('lists runs stored with 1 MB names in pages far below the message limit', async () => {
    const repo = db.getRepository(RunEntity);
    // As an older version could have stored them, bypassing today's name validation.
    const huge = (c: string) => ({
      name: c.repeat(1_000_000),
      status: 'failed' as const,
      spec: { big: 'x'.repeat(100_000) },
      specSha256: c,
      error: 'e'.repeat(1_000_000),
    });
    await repo.save(['a', 'b', 'c'].map(huge));
    for (let i = 0; i < 117; i++)
      await repo.save({ name: `run-${i}`, status: 'completed', spec: {}, specSha256: `s${i}` });

    const first = await listRuns(500);
    expect(first.code).toBe(status.OK);
    expect(first.value!.runs).toHaveLength(100);
    expect(first.value!.nextPageToken).not.toBe('');
    const second = await listRuns(500, first.value!.nextPageToken);
    expect(second.value!.runs).toHaveLength(20);
    expect(second.value!.nextPageToken).toBe('');
    const all: Run[] = [...first.value!.runs, ...second.value!.runs];
    expect(new Set(all.map((r) => r.id)).size).toBe(120);
    const big = all.filter((r) => r.name.length > 100);
    expect(big.map((r) => [r.name.length, r.error.length, r.specJson])).toEqual([
      [200, 500, ''],
      [200, 500, ''],
      [200, 500, ''],
    ]);
    // The largest page possible: 100 runs, here including the three huge ones.
    const bytes = ListRunsResponse.encode({
      runs: [...big, ...first.value!.runs.slice(0, 97)],
      nextPageToken: 'x',
    }).finish().length;
    expect(bytes).toBeLessThan(200_000);

    // The CLI follows the pages up to its --limit.
    const cli = await runCli(['--remote', address, 'runs', 'ls', '--limit', '110', '--json'], {
      PRECIS_API_KEY: KEY,
    });
    expect(cli.stderr).toBe('');
    const listed = JSON.parse(cli.stdout) as { id: string }[];
    expect(listed.map((r) => r.id)).toEqual(all.slice(0, 110).map((r) => r.id));

    const got = await answer<{ run?: Run }>((md, o, cb) => runs.getRun({ runId: big[0]!.id }, md, o, cb));
    expect(got.value!.run!.error.length).toBe(1_000_000);
  }, 60_000);

  it('refuses a forged page token, a 1 MB run id and a 1 MB run name without echoing them', async () => {
    expect(await listRuns(10, 'not-a-token')).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'page_token: not a token this gateway issued for this list; start again without one',
    });
    const id = 'r'.repeat(1_000_000);
    expect(await answer((md, o, cb) => runs.getRun({ runId: id }, md, o, cb))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'run_id: 1000000 characters; at most 100 are accepted',
    });
    const spec = {
      name: 'n'.repeat(1_000_000),
      datasets: [{ name: 'd' }],
      systems: [{ name: 's', strategy: 'hierarchical', engine: 'textrank' }],
      metrics: [{ name: 'booookscore', judge: { engine: 'heuristic' } }],
    };
    const named = await answer((md, o, cb) =>
      runs.createRun({ specJson: JSON.stringify(spec), fresh: true }, md, o, cb),
    );
    expect(named.code).toBe(status.INVALID_ARGUMENT);
    expect(named.details).toContain('name: at most 100 characters');
    expect(named.details.length).toBeLessThan(1000);
  });

  it('refuses a request over GRPC_MAX_MESSAGE_BYTES with RESOURCE_EXHAUSTED', async () => {
    const specJson = JSON.stringify({ name: 'x', padding: 'p'.repeat(5 * 1024 * 1024) });
    const res = await answer((md, o, cb) => runs.createRun({ specJson, fresh: true }, md, o, cb));
    expect(res.code).toBe(status.RESOURCE_EXHAUSTED);
    expect(res.details).toMatch(/^Received message larger than max \(\d+ vs 4194304\)$/);
  });

  it('refuses an import beyond IMPORT_MAX_IN_FLIGHT at once, and takes one again when a slot frees', async () => {
    const call = () =>
      answer((md, o, cb) =>
        ingestion.importDataset(
          { kind: 'text', path: 'book.md', datasetName: 'book', replace: false },
          md,
          o,
          cb,
        ),
      );
    const waiting = call();
    await new Promise((r) => setTimeout(r, 300));
    expect(await call()).toEqual({
      code: status.RESOURCE_EXHAUSTED,
      details:
        'this gateway already holds 1 of 1 waiting imports (IMPORT_MAX_IN_FLIGHT); retry when one has finished',
    });
    expect((await waiting).code).toBe(status.DEADLINE_EXCEEDED);
    expect((await call()).code).toBe(status.DEADLINE_EXCEEDED);
  }, 30_000);
});
