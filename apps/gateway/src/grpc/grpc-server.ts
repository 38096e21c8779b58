import type { INestApplication } from '@nestjs/common';
import { type GrpcOptions, Transport } from '@nestjs/microservices';
import { IngestionServiceService, RunServiceService } from '@precis/contracts';
import type { ServiceLogger } from '@precis/service';
import type { GatewayConfig } from '../config/gateway.env.js';

// The gRPC API is served from the service definitions generated into @precis/contracts (the same
// (de)serializers the clients use), so no .proto file is read at runtime.
export const GRPC_PACKAGE_DEFINITION = {
  'precis.v1.IngestionService': IngestionServiceService,
  'precis.v1.RunService': RunServiceService,
};

export function connectGrpcServer(app: INestApplication, config: GatewayConfig, logger: ServiceLogger): void {
  const url = `${config.GRPC_HOST}:${config.GRPC_PORT}`;
  app.connectMicroservice<GrpcOptions>(
    {
      transport: Transport.GRPC,
      options: {
        package: 'precis.v1',
        packageDefinition: GRPC_PACKAGE_DEFINITION,
        url,
        // Let in-flight calls finish on shutdown instead of cutting them off.
        gracefulShutdown: true,
      },
    },
    { inheritAppConfig: true },
  );
  logger.info({ url, services: Object.keys(GRPC_PACKAGE_DEFINITION) }, 'gRPC server configured');
}
