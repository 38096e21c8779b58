import { connectGrpcServer, GATEWAY_ENV, GatewayModule } from '@precis/api';
import { bootstrapService, type RunningService } from '@precis/service';

export function bootstrap(
  overrides: { processEnv?: Record<string, string | undefined>; handleSignals?: boolean } = {},
): Promise<RunningService<typeof GATEWAY_ENV>> {
  return bootstrapService(GatewayModule, {
    name: 'gateway',
    packageJson: new URL('../package.json', import.meta.url),
    env: GATEWAY_ENV,
    // The gateway enqueues ingest tasks (and probes JetStream through that queue).
    stages: ['ingest'],
    configure: connectGrpcServer,
    ...overrides,
  });
}
