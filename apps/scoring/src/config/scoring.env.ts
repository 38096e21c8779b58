import { commonEnv, type EnvConfig, workerEnv } from '@precis/service';

export const SCORING_ENV = {
  ...commonEnv({ httpPort: 8085 }),
  ...workerEnv({ concurrency: 4 }),
};

export type ScoringConfig = EnvConfig<typeof SCORING_ENV>;
