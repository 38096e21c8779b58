import { bootstrapService, type RunningService } from '@precis/service';
import { GATEWAY_ENV } from './config/gateway.env.js';
import { GatewayModule } from './gateway.module.js';
import { connectGrpcServer } from './grpc/grpc-server.js';

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
