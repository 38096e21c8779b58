import { readFileSync } from 'node:fs';
import { ServerCredentials } from '@grpc/grpc-js';
import type { INestApplication } from '@nestjs/common';
import { type GrpcOptions, Transport } from '@nestjs/microservices';
import { IngestionServiceService, KeyServiceService, RunServiceService } from '@precis/contracts';
import type { ServiceLogger } from '@precis/service';
import type { GatewayConfig } from '../config/gateway.env.js';

// The gRPC API is served from the service definitions generated into @precis/contracts (the same
// (de)serializers the clients use), so no .proto file is read at runtime.
export const GRPC_PACKAGE_DEFINITION = {
  'precis.v1.IngestionService': IngestionServiceService,
  'precis.v1.RunService': RunServiceService,
  'precis.v1.KeyService': KeyServiceService,
};

export class GrpcTlsConfigError extends Error {}

// TLS when GRPC_TLS_CERT and GRPC_TLS_KEY name readable PEM files; both or neither.
export function grpcServerCredentials(config: GatewayConfig): ServerCredentials {
  const { GRPC_TLS_CERT: cert, GRPC_TLS_KEY: key } = config;
  if (!cert && !key) return ServerCredentials.createInsecure();
  if (!cert || !key)
    throw new GrpcTlsConfigError(
      `gateway: invalid configuration: ${cert ? 'GRPC_TLS_KEY' : 'GRPC_TLS_CERT'} is not set; TLS needs both GRPC_TLS_CERT and GRPC_TLS_KEY (or neither for plaintext)`,
    );
  const read = (name: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new GrpcTlsConfigError(
        `gateway: invalid configuration: ${name}=${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); give the path of a PEM file`,
      );
    }
  };
  return ServerCredentials.createSsl(
    null,
    [{ cert_chain: read('GRPC_TLS_CERT', cert), private_key: read('GRPC_TLS_KEY', key) }],
    false,
  );
}

export function connectGrpcServer(app: INestApplication, config: GatewayConfig, logger: ServiceLogger): void {
  const url = `${config.GRPC_HOST}:${config.GRPC_PORT}`;
  const credentials = grpcServerCredentials(config);
  app.connectMicroservice<GrpcOptions>(
    {
      transport: Transport.GRPC,
      options: {
        package: 'precis.v1',
        packageDefinition: GRPC_PACKAGE_DEFINITION,
        url,
        credentials,
        maxReceiveMessageLength: config.GRPC_MAX_MESSAGE_BYTES,
        maxSendMessageLength: config.GRPC_MAX_MESSAGE_BYTES,
        // Let in-flight calls finish on shutdown instead of cutting them off.
        gracefulShutdown: true,
      },
    },
    { inheritAppConfig: true },
  );
  const tls = config.GRPC_TLS_CERT !== undefined;
  logger.info({ url, tls, services: Object.keys(GRPC_PACKAGE_DEFINITION) }, 'gRPC server configured');
}
