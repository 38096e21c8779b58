import { bootstrapService, type RunningService } from '@precis/service';
import { SUMMARIZATION_ENV } from './config/summarization.env.js';
import { SUMMARIZATION_STAGES } from './summarization/summarization.handlers.js';
import { SummarizationAppModule } from './summarization.module.js';

export function bootstrap(
  overrides: { processEnv?: Record<string, string | undefined>; handleSignals?: boolean } = {},
): Promise<RunningService<typeof SUMMARIZATION_ENV>> {
  return bootstrapService(SummarizationAppModule, {
    name: 'summarization',
    packageJson: new URL('../package.json', import.meta.url),
    env: SUMMARIZATION_ENV,
    stages: SUMMARIZATION_STAGES,
    ...overrides,
  });
}
