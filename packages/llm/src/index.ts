export {
  callsOfBatch,
  markSubmitted,
  type ParkedCall,
  type ParkOutcome,
  parkCall,
  queuedCallsOf,
  recordBatchState,
  type StoredBatch,
  type TakenBatch,
  takeQueuedCalls,
  unsettledBatches,
} from './batch/batch.store.js';
export { type ActiveBatchScope, batchScopeOf, CallParkedError, withBatchScope } from './batch/batch-scope.js';
export {
  type AnsweredLedger,
  type SettledCall,
  type Settlement,
  settleBatch,
} from './batch/batch-settle.store.js';
export { type BatchRound, type BatchRoundOptions, batchRound, type EndedBatch } from './batch/batcher.js';
export { batchEndpointKey } from './batch/park-in-batch.js';
export { batchAnswerPricer } from './batch/price-answer.js';
export {
  type BatchClient,
  type BatchEndpoint,
  BatchFileError,
  type BatchFileLimits,
  type BatchLineResult,
  type BatchRequest,
  batchInputFiles,
  batchResults,
  cancelBatch,
  ENDED_BATCH_STATUSES,
  type ProviderBatchState,
  type ProviderBatchStatus,
  readBatch,
  submitBatch,
} from './batch/provider-batch.js';
export { canonicalJson, computeCacheKey, computeCacheKeys } from './cache-key.js';
export { backoffDelayMs, parseRetryAfterMs } from './client/backoff.js';
export {
  LlmClient,
  type LlmClientOptions,
  sampleTemplateVersion,
} from './client/llm-client.js';
export { createOpenAiSdk } from './client/openai-sdk.js';
export { splitReasoning } from './client/parse-response.js';
export { PreflightError, type PreflightOptions, preflightModels } from './client/preflight.js';
export type {
  ChatMessage,
  ChatRequest,
  ChatResult,
  EmbedRequest,
  EmbedResult,
  LlmUsage,
  TokenLogprob,
} from './client/types.js';
export { COST_SCALE, chatCostUnits, costUnits, formatCost, parseCost, parsePrice } from './cost.js';
export {
  CostLimitError,
  isPermanentLlmError,
  LlmAbortedError,
  LlmConfigError,
  LlmConnectionError,
  LlmError,
  LlmHttpError,
  LlmLengthError,
  LlmRateLimitError,
  LlmResponseError,
  LlmTimeoutError,
  MissingApiKeyError,
  ModelCapabilityError,
  PermanentModelError,
  redactSecrets,
} from './errors.js';
export { ledgerInsertSql, ledgerRowsJson } from './ledger-rows.js';
export type { EndpointLimiterStats } from './limits/endpoint-limiter.js';
export { LimiterRegistry, processLimiters } from './limits/limiter-registry.js';
export { PgSharedLimits, type SharedLimits } from './limits/pg-shared-limits.js';
export { Semaphore } from './limits/semaphore.js';
export { TokenBucket } from './limits/token-bucket.js';
export { type CheckModelsOptions, checkModels } from './probe/check-models.js';
export { compareCapabilities, declaredTemperature } from './probe/compare-capabilities.js';
export { PROBE_RETRIES } from './probe/probe-sender.js';
export type {
  CapabilityRow,
  ChatObservations,
  ModelCheck,
  ProbedCapability,
  RegistrySuggestion,
} from './probe/probe-types.js';
export { fitCapabilities, suggestRegistryLines } from './probe/registry-lines.js';
export { type BatchSettings, batchCostUnits, parseByteSize } from './registry/batch-settings.js';
export {
  capabilityProblems,
  describeCapabilityProblems,
  describeModel,
  type ModelUse,
  modelUseProblems,
} from './registry/capability-check.js';
export {
  loadModelRegistry,
  ModelRegistryError,
  parseModelRegistryText,
  type RegistryIssue,
} from './registry/load-model-registry.js';
export type {
  ModelEntryInput,
  ModelKind,
  ModelRegistry,
  ModelRegistryInput,
  ModelSpec,
} from './registry/model-spec.js';
export {
  genericProviderSettings,
  type ProviderSettings,
} from './registry/provider-fields.js';
export {
  acceptsTemperature,
  describeTemperature,
  isOpenAiReasoningModel,
  type ModelCapabilities,
  PROVIDERS,
  type Provider,
  presetCapabilities,
  REASONING_EFFORTS,
  type ReasoningEffort,
  type Support,
} from './registry/providers.js';
export { looksLikeSecret, redactSecretLooking, SECRET_MASK } from './secret-looking.js';
export { withHeldLedger, withLedgerScope } from './store/ledger-scope.js';
export type { LlmCallRecord, LlmCallStatus, LlmLedgerTotals, LlmStore } from './store/llm-store.js';
export { MemoryLlmStore } from './store/memory-llm-store.js';
export {
  createTypeOrmLlmStore,
  TypeOrmLlmStore,
  type TypeOrmLlmStoreOptions,
} from './store/typeorm-llm-store.js';
