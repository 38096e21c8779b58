import { bootstrapService, type RunningService } from '@precis/service';
import { SCORING_ENV } from './config/scoring.env.js';
import { SCORING_STAGES } from './scoring/scoring.handlers.js';
import { ScoringAppModule } from './scoring.module.js';

export function bootstrap(
  overrides: { processEnv?: Record<string, string | undefined>; handleSignals?: boolean } = {},
): Promise<RunningService<typeof SCORING_ENV>> {
  return bootstrapService(ScoringAppModule, {
    name: 'scoring',
    packageJson: new URL('../package.json', import.meta.url),
    env: SCORING_ENV,
    stages: SCORING_STAGES,
    ...overrides,
  });
}
