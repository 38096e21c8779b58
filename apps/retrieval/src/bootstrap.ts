import { bootstrapService, type RunningService } from '@precis/service';
import { RETRIEVAL_ENV } from './config/retrieval.env.js';
import { RETRIEVAL_STAGES } from './retrieval/retrieval.handlers.js';
import { RetrievalAppModule } from './retrieval.module.js';

export function bootstrap(
  overrides: { processEnv?: Record<string, string | undefined>; handleSignals?: boolean } = {},
): Promise<RunningService<typeof RETRIEVAL_ENV>> {
  return bootstrapService(RetrievalAppModule, {
    name: 'retrieval',
    packageJson: new URL('../package.json', import.meta.url),
    env: RETRIEVAL_ENV,
    stages: RETRIEVAL_STAGES,
    ...overrides,
  });
}
