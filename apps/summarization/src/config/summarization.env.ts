import { commonEnv, type EnvConfig, workerEnv } from '@precis/service';

export const SUMMARIZATION_ENV = {
  ...commonEnv({ httpPort: 8083 }),
  ...workerEnv({ concurrency: 8 }),
};

export type SummarizationConfig = EnvConfig<typeof SUMMARIZATION_ENV>;
