import { commonEnv, type EnvConfig, workerEnv } from '@precis/service';

export const VERIFIER_ENV = {
  ...commonEnv({ httpPort: 8084 }),
  ...workerEnv({ concurrency: 16 }),
};

export type VerifierConfig = EnvConfig<typeof VERIFIER_ENV>;
