import { commonEnv, type EnvConfig, fileAccessEnv, workerEnv } from '@precis/service';

export const INGESTION_ENV = {
  ...commonEnv({ httpPort: 8081 }),
  // Imports are large, CPU-bound transactions: a couple at a time per process is plenty.
  ...workerEnv({ concurrency: 2 }),
  ...fileAccessEnv(),
};

export type IngestionConfig = EnvConfig<typeof INGESTION_ENV>;
