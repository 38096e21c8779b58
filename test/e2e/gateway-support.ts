// A gateway (and, on request, an ingestion service) as separate processes over a throwaway
// database and a NATS prefix of their own, with one API key mounted, for the gateway e2e tests.
import { randomBytes } from 'node:crypto';
import { credentials, Metadata, type ServiceError, status } from '@grpc/grpc-js';
import { IngestionServiceClient, RunServiceClient } from '@precis/contracts';
import { createDataSource, createThrowawayDatabase, generateApiKey } from '@precis/db';
import type { DataSource } from 'typeorm';
import {
  freePort,
  type ServiceProcess,
  startService,
  waitReady,
} from '../../packages/service/test/support/service-process.js';
import { deleteBusStreams, natsUrl, repoRoot } from './runs-support.js';

export function authorized(key: string): Metadata {
  const md = new Metadata();
  md.set('authorization', `Bearer ${key}`);
  return md;
}

export interface Answer<T = unknown> {
  code: number;
  details: string;
  value?: T;
}

// A unary call's outcome as a value, so a test can compare codes and messages with toEqual.
export function answer<T>(
  md: Metadata,
  invoke: (md: Metadata, opts: { deadline: Date }, cb: (e: ServiceError | null, v: T) => void) => unknown,
  deadlineMs = 20_000,
): Promise<Answer<T>> {
  return new Promise((done) => {
    invoke(md, { deadline: new Date(Date.now() + deadlineMs) }, (e, v) =>
      done(e ? { code: e.code, details: e.details } : { code: status.OK, details: '', value: v }),
    );
  });
}

export interface GatewayStack {
  key: string;
  address: string;
  db: DataSource;
  gateway: ServiceProcess;
  procs: ServiceProcess[];
  runs: RunServiceClient;
  ingestion: IngestionServiceClient;
  // The environment the services share (database, NATS prefix), to start more of them.
  common: Record<string, string>;
  stop(): Promise<void>;
}

export async function startGatewayStack(opts: {
  name: string;
  env?: Record<string, string>;
  withIngestion?: boolean;
}): Promise<GatewayStack> {
  const key = generateApiKey();
  const prefix = `e2e_${opts.name}_${randomBytes(4).toString('hex')}`;
  const tdb = await createThrowawayDatabase(`e2e_${opts.name}`);
  const db = await createDataSource({ url: tdb.url, runMigrations: true });
  const common = {
    DATABASE_URL: tdb.url,
    DATABASE_RUN_MIGRATIONS: 'false',
    NATS_URL: natsUrl,
    PRECIS_BUS_PREFIX: prefix,
    HTTP_HOST: '127.0.0.1',
    ...opts.env,
  };
  const port = await freePort();
  const gateway = startService(repoRoot, 'gateway', {
    ...common,
    HTTP_PORT: String(await freePort()),
    GRPC_PORT: String(port),
    PRECIS_API_KEYS: key,
  });
  const procs = [gateway];
  if (opts.withIngestion)
    procs.push(startService(repoRoot, 'ingestion', { ...common, HTTP_PORT: String(await freePort()) }));
  await Promise.all(procs.map((p) => waitReady(p)));
  const address = `127.0.0.1:${port}`;
  const runs = new RunServiceClient(address, credentials.createInsecure());
  const ingestion = new IngestionServiceClient(address, credentials.createInsecure());
  return {
    key,
    address,
    db,
    gateway,
    procs,
    runs,
    ingestion,
    common,
    async stop() {
      runs.close();
      ingestion.close();
      await Promise.all(procs.map((p) => p.stop('SIGKILL')));
      await db.destroy();
      await tdb.drop();
      await deleteBusStreams(prefix).catch(() => {});
    },
  };
}
