import { bootstrapService, type RunningService } from '@precis/service';
import { VERIFIER_ENV } from './config/verifier.env.js';
import { VERIFICATION_STAGES } from './verification/verification.handlers.js';
import { VerifierAppModule } from './verifier.module.js';

export function bootstrap(
  overrides: { processEnv?: Record<string, string | undefined>; handleSignals?: boolean } = {},
): Promise<RunningService<typeof VERIFIER_ENV>> {
  return bootstrapService(VerifierAppModule, {
    name: 'verifier',
    packageJson: new URL('../package.json', import.meta.url),
    env: VERIFIER_ENV,
    stages: VERIFICATION_STAGES,
    ...overrides,
  });
}
