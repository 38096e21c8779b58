import { commonEnv, type EnvConfig, int, port, str } from '@precis/service';

export const GATEWAY_ENV = {
  ...commonEnv({ httpPort: 8080 }),
  GRPC_HOST: str({ default: '0.0.0.0', description: 'address the gRPC server binds to' }),
  GRPC_PORT: port({ default: 50051, description: 'port of the gRPC API (precis.v1.IngestionService)' }),
  INGEST_TIMEOUT_MS: int({
    default: 1_800_000,
    min: 1000,
    max: 86_400_000,
    description: 'how long ImportDataset waits for the ingestion service to finish the import',
  }),
};

export type GatewayConfig = EnvConfig<typeof GATEWAY_ENV>;
