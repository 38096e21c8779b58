import { bootstrapService, type RunningService } from '@precis/service';
import { INGESTION_ENV } from './config/ingestion.env.js';
import { IngestionModule } from './ingestion.module.js';

export function bootstrap(
  overrides: { processEnv?: Record<string, string | undefined>; handleSignals?: boolean } = {},
): Promise<RunningService<typeof INGESTION_ENV>> {
  return bootstrapService(IngestionModule, {
    name: 'ingestion',
    packageJson: new URL('../package.json', import.meta.url),
    env: INGESTION_ENV,
    stages: ['ingest'],
    ...overrides,
  });
}
