import { API_KEY_PATTERN } from '@precis/db';
import {
  commonEnv,
  type EnvConfig,
  fileAccessEnv,
  int,
  pluginAddressEnv,
  port,
  secretList,
  str,
} from '@precis/service';

export const GATEWAY_ENV = {
  ...commonEnv({ httpPort: 8080 }),
  // Dataset paths in a CreateRun spec are read by the gateway itself, under the same policy.
  ...fileAccessEnv(),
  // CreateRun refuses a spec naming a plugin elsewhere (`precis serve`'s workers call only these).
  ...pluginAddressEnv(),
  GRPC_HOST: str({
    default: '127.0.0.1',
    description: 'address the gRPC server binds to (0.0.0.0 to accept connections from other hosts)',
  }),
  GRPC_PORT: port({
    default: 50051,
    description: 'port of the gRPC API (precis.v1.IngestionService, precis.v1.RunService)',
  }),
  GRPC_MAX_MESSAGE_BYTES: int({
    default: 4 * 1024 * 1024,
    min: 64 * 1024,
    max: 64 * 1024 * 1024,
    description: 'largest gRPC request accepted (larger ones get RESOURCE_EXHAUSTED) and answer sent',
  }),
  GRPC_TLS_CERT: str({
    optional: true,
    description: 'PEM certificate chain file for TLS on the gRPC port (with GRPC_TLS_KEY); unset = plaintext',
  }),
  GRPC_TLS_KEY: str({ optional: true, description: 'PEM private key file for GRPC_TLS_CERT' }),
  PRECIS_API_KEYS: secretList({
    optional: true,
    pattern: API_KEY_PATTERN,
    patternHint: 'Precis API keys (precis_ and 43 characters, from `precis keys create`)',
    description: 'API keys accepted with write scope besides those created with `precis keys create`',
  }),
  PRECIS_ADMIN_KEY: str({
    optional: true,
    secret: true,
    pattern: API_KEY_PATTERN,
    patternHint: 'a Precis API key (precis_ and 43 characters)',
    description:
      'a key that may also manage keys over gRPC (KeyService); `precis serve` sets a new one at each start for the CLI',
  }),
  IMPORT_MAX_IN_FLIGHT: int({
    default: 8,
    min: 1,
    max: 1000,
    description: 'ImportDataset calls waiting at this gateway at once; more get RESOURCE_EXHAUSTED',
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
