import { commonEnv, type EnvConfig, str, workerEnv } from '@precis/service';

export const SUMMARIZATION_ENV = {
  ...commonEnv({ httpPort: 8083 }),
  ...workerEnv({ concurrency: 8 }),
  PRECIS_MODELS: str({
    optional: true,
    description: 'model registry file (YAML/JSON); unset = only offline engines can run',
  }),
};

export type SummarizationConfig = EnvConfig<typeof SUMMARIZATION_ENV>;
