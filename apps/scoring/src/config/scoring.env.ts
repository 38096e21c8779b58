import { commonEnv, type EnvConfig, str, workerEnv } from '@precis/service';

export const SCORING_ENV = {
  ...commonEnv({ httpPort: 8085 }),
  ...workerEnv({ concurrency: 4 }),
  PRECIS_MODELS: str({
    optional: true,
    description: 'model registry file (YAML/JSON), as the other services use it; unset = offline only',
  }),
};

export type ScoringConfig = EnvConfig<typeof SCORING_ENV>;
