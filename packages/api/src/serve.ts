import { Global, Module } from '@nestjs/common';
import { STAGES } from '@precis/contracts';
import { resolvePgliteDir } from '@precis/db';
import {
  bootstrapService,
  IngestJobModule,
  type RunningService,
  STAGE_QUEUES,
  StageConsumer,
  WORKER_LOG_LEVEL,
  workerEnv,
} from '@precis/service';
import { GATEWAY_ENV } from './config/gateway.env.js';
import { GatewayModule } from './gateway.module.js';
import { connectGrpcServer } from './grpc/grpc-server.js';

// `precis serve` reads the gateway's variables plus the workers' (concurrency, retries).
export const SERVE_ENV = { ...GATEWAY_ENV, ...workerEnv({ concurrency: 8 }) };

const WORKER_STAGES = STAGES.filter((s) => s !== 'ingest');

// Every run stage's worker; the ingest stage's comes with IngestJobModule.
@Module({ providers: [{ provide: STAGE_QUEUES, useValue: WORKER_STAGES }, StageConsumer] })
class StageWorkersModule {}

// The workers' lines (a few per task) only at warn, so the log shows one line per request;
// LOG_LEVEL=debug shows them all.
@Global()
@Module({ providers: [{ provide: WORKER_LOG_LEVEL, useValue: 'warn' }], exports: [WORKER_LOG_LEVEL] })
class QuietWorkersModule {}

// The gateway and every stage worker in one process, as on a laptop.
@Module({ imports: [GatewayModule, IngestJobModule, StageWorkersModule] })
class EmbeddedServerModule {}

@Module({ imports: [QuietWorkersModule, EmbeddedServerModule] })
class QuietEmbeddedServerModule {}

export class ServeConfigError extends Error {}

export interface ServeOptions {
  processEnv: Record<string, string | undefined>;
  cwd: string;
  handleSignals?: boolean;
}

// Embedded (neither DATABASE_URL nor NATS_URL set): the API, the web page, gRPC and every stage
// worker on the embedded database and the in-process bus. Cluster (both set): the gateway.
export function serve(opts: ServeOptions): Promise<RunningService<typeof SERVE_ENV>> {
  const env = opts.processEnv;
  const db = Boolean(env.DATABASE_URL?.trim());
  const nats = Boolean(env.NATS_URL?.trim());
  if (db !== nats)
    throw new ServeConfigError(
      `${db ? 'DATABASE_URL' : 'NATS_URL'} is set but ${db ? 'NATS_URL' : 'DATABASE_URL'} is not: ` +
        'set both to serve as the cluster gateway, or neither to serve the embedded database',
    );
  const common = {
    packageJson: new URL('../package.json', import.meta.url),
    env: SERVE_ENV,
    configure: connectGrpcServer,
    handleSignals: opts.handleSignals,
  };
  if (db)
    return bootstrapService(GatewayModule, {
      ...common,
      name: 'gateway',
      stages: ['ingest'],
      processEnv: env,
    });
  const verbose = env.LOG_LEVEL === 'debug' || env.LOG_LEVEL === 'trace';
  return bootstrapService(verbose ? EmbeddedServerModule : QuietEmbeddedServerModule, {
    ...common,
    name: 'precis',
    stages: [...STAGES],
    // Only this machine, unless HTTP_HOST says otherwise.
    processEnv: { HTTP_HOST: '127.0.0.1', ...env },
    embedded: { pgliteDir: resolvePgliteDir(env, opts.cwd) },
    quietStart: true,
  });
}
