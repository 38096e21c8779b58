import { commonEnv, type EnvConfig, str, workerEnv } from '@precis/service';

export const VERIFIER_ENV = {
  ...commonEnv({ httpPort: 8084 }),
  ...workerEnv({ concurrency: 16 }),
  PRECIS_MODELS: str({
    optional: true,
    description: 'model registry file (YAML/JSON); unset = only offline judges (heuristic) can run',
  }),
};

export type VerifierConfig = EnvConfig<typeof VERIFIER_ENV>;
