import { commonEnv, type EnvConfig, str, workerEnv } from '@precis/service';

export const INGESTION_ENV = {
  ...commonEnv({ httpPort: 8081 }),
  // Imports are large, CPU-bound transactions: a couple at a time per process is plenty.
  ...workerEnv({ concurrency: 2 }),
  INGEST_ROOT: str({
    optional: true,
    pattern: /^\//,
    patternHint: 'an absolute directory path',
    description:
      'when set, dataset paths are resolved against this directory and paths outside it are refused; unset = any path readable by the service',
  }),
};

export type IngestionConfig = EnvConfig<typeof INGESTION_ENV>;
