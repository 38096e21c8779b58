import { commonEnv, type EnvConfig, int, port, str } from '@precis/service';

export const GATEWAY_ENV = {
  ...commonEnv({ httpPort: 8080 }),
  GRPC_HOST: str({ default: '0.0.0.0', description: 'address the gRPC server binds to' }),
  GRPC_PORT: port({
    default: 50051,
    description: 'port of the gRPC API (precis.v1.IngestionService, precis.v1.RunService)',
  }),
  INGEST_TIMEOUT_MS: int({
    default: 1_800_000,
    min: 1000,
    max: 86_400_000,
    description: 'how long ImportDataset waits for the ingestion service to finish the import',
  }),
  PRECIS_MODELS: str({
    optional: true,
    description:
      'model registry file (YAML/JSON), the same one the workers use; CreateRun checks model names against it',
  }),
  RUN_TICK_MS: int({
    default: 2000,
    min: 50,
    max: 600_000,
    description: 're-plan every running run this often, in case a task-completed event was missed',
  }),
};

export type GatewayConfig = EnvConfig<typeof GATEWAY_ENV>;
