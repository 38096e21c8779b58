export { fakeEmbedding } from './fake-llm/embeddings.js';
export { parseFaultSpec } from './fake-llm/fault-spec.js';
export { FAKE_PROVIDER_PROFILES, type FakeProviderProfile, parseProfile } from './fake-llm/profiles.js';
export { seededRandom } from './fake-llm/rng.js';
export { loadRulesFile, parseRules } from './fake-llm/rules-file.js';
export { type FakeLlmServer, startFakeLlmServer } from './fake-llm/server.js';
export { type FakeLlmProcess, spawnFakeLlmProcess } from './fake-llm/spawn-process.js';
export { countChatPromptTokens } from './fake-llm/tokens.js';
export type {
  FakeChatMessage,
  FakeFault,
  FakeFaultFilter,
  FakeFaultKind,
  FakeLlmServerOptions,
  FakeLlmStats,
  FakeRandomFaults,
  FakeReply,
  FakeReplyContext,
  FakeReplyObject,
  FakeReplySource,
  FakeRequestRecord,
  FakeRule,
  FakeTokenLogprob,
} from './fake-llm/types.js';
export {
  createResponseCheck,
  formatSchemaError,
  type OpenApiDoc,
  type ResponseCheck,
} from './openapi/response-check.js';
export { freePort } from './servers/process-cleanup.js';
export {
  startThrowawayNats,
  type ThrowawayNats,
  type ThrowawayNatsOptions,
} from './servers/throwaway-nats.js';
export {
  startThrowawayPostgres,
  type ThrowawayPostgres,
  type ThrowawayPostgresOptions,
} from './servers/throwaway-postgres.js';
