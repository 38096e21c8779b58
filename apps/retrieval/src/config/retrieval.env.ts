import { commonEnv, type EnvConfig, workerEnv } from '@precis/service';

export const RETRIEVAL_ENV = {
  ...commonEnv({ httpPort: 8082 }),
  ...workerEnv({ concurrency: 8 }),
};

export type RetrievalConfig = EnvConfig<typeof RETRIEVAL_ENV>;
