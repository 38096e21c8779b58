import { commonEnv, type EnvConfig, pluginAddressEnv, str, workerEnv } from '@precis/service';

export const SUMMARIZATION_ENV = {
  ...commonEnv({ httpPort: 8083 }),
  ...workerEnv({ concurrency: 8 }),
  // The worker refuses a plugin outside these without connecting, even if the gateway allowed it.
  ...pluginAddressEnv(),
  PRECIS_MODELS: str({
    optional: true,
    description: 'model registry file (YAML/JSON); unset = only offline engines can run',
  }),
};

export type SummarizationConfig = EnvConfig<typeof SUMMARIZATION_ENV>;
