export {
  API_KEY_PATTERN,
  API_KEY_SCOPES,
  ApiKeyError,
  type ApiKeyInfo,
  createApiKey,
  findApiKey,
  generateApiKey,
  hashApiKey,
  isApiKeyScope,
  listApiKeys,
  removeApiKey,
} from './api-keys.js';
export {
  type CreateDataSourceOptions,
  createDataSource,
  type DatabaseKind,
  databaseKind,
} from './create-data-source.js';
export {
  commonDataSourceOptions,
  DEFAULT_POOL_SIZE,
  MIGRATIONS_TABLE,
  postgresDataSourceOptions,
} from './data-source-options.js';
export { isDatabaseUnavailableError } from './database-unavailable.js';
export type {
  CorpusFileText,
  DatasetFileInput,
  DatasetKindParser,
  DatasetKindTable,
  JsonObject,
  JsonValue,
  ParsedChunk,
  ParsedCorpusDocument,
  ParsedDataset,
  ParsedDocument,
  ParseProgress,
} from './dataset-kind.js';
export * from './entities/index.js';
export {
  ENV_BOOL_WORDS,
  ENV_FALSE_WORDS,
  ENV_TRUE_WORDS,
  type Env,
  redactUrl,
  resolveDatabaseUrl,
  resolvePgliteDir,
  resolvePrecisHome,
  resolvePreparedStatements,
} from './env.js';
export { MIGRATIONS } from './migrations/index.js';
export { toNumber } from './numbers.js';
export { PGLITE_LOCK_FILE } from './pglite/pglite-open.js';
export { preparedQuery } from './prepared-query.js';
export {
  type ChunkOptions,
  countRows,
  insertInChunks,
  inTransaction,
  type TransactionOptions,
  type UpsertOptions,
  upsertInChunks,
} from './repository-helpers.js';
export { findSchemaDrift } from './schema-drift.js';
export { databaseStatements } from './statement-counter.js';
export { createThrowawayDatabase, DEFAULT_ADMIN_URL, type ThrowawayDatabase } from './throwaway-database.js';
