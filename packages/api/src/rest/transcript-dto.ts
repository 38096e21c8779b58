import { z } from 'zod';

// Response shapes of the transcript routes (GET .../traces/{document}/calls and .../facts), for
// the OpenAPI document.
const callDto = z.object({
  id: z.string(),
  taskId: z.string().describe('<run>:<stage>:<system>:<document>:...'),
  stage: z.string(),
  system: z.string(),
  model: z.string().describe('registry name'),
  modelId: z.string().describe("the provider's model id"),
  kind: z.string().describe('chat or embedding'),
  status: z.string().describe('ok, error, cached or sent (no answer recorded)'),
  cacheHit: z.boolean(),
  calls: z.number().int().describe('calls the row accounts for (cached samples answered together)'),
  templateVersion: z.string().nullable(),
  createdAt: z.string(),
  latencyMs: z.number(),
  attempts: z.number(),
  error: z.string().nullable(),
  notes: z.array(z.string()).describe('how the request was shaped to its model'),
  tokensIn: z.number(),
  tokensCached: z.number().describe("prompt tokens from the provider's prompt cache (part of tokensIn)"),
  tokensOut: z.number().describe('output tokens, reasoning included'),
  tokensReasoning: z.number(),
  costUsd: z.number(),
  listCostUsd: z.number().describe("what it costs at the model's prices even when the cache answered"),
  messages: z
    .array(z.object({ role: z.string(), content: z.string() }))
    .describe("the prompt; a cache hit's is that of the call that filled its entry"),
  params: z.record(z.string(), z.unknown()).describe("the request's other fields (temperature, ...)"),
  replies: z
    .array(
      z.object({ text: z.string(), reasoning: z.string().nullable(), finishReason: z.string().nullable() }),
    )
    .describe('each choice: the answer and the reasoning split from it'),
  response: z.unknown().describe("the provider's raw body (embedding vectors shown by their length)"),
  cachedFrom: z
    .array(
      z.object({
        id: z.string(),
        runId: z.string().nullable(),
        taskId: z.string().nullable(),
        createdAt: z.string(),
      }),
    )
    .describe('for a cache hit: the stored call(s) whose answer it replayed'),
});

export const callPageDto = z.object({
  document: z.object({ id: z.string(), externalId: z.string() }),
  total: z.number().int().describe("the document's calls (of the system, when one was asked for)"),
  calls: z.array(callDto).describe('by system, then in the order they were made'),
  nextPageToken: z.string().describe('"" on the last page'),
});

const modelEntryDto = z
  .object({
    name: z.string(),
    kind: z.string(),
    provider: z.string(),
    modelId: z.string(),
    baseURL: z.string(),
    apiKeyEnv: z.string().nullable().describe("the variable's name; never its value"),
    contextWindow: z.number(),
    maxConcurrency: z.number(),
    requestsPerMinute: z.number().nullable(),
    tokensPerMinute: z.number().nullable(),
    pricePer1MInput: z.string(),
    pricePer1MOutput: z.string(),
    pricePer1MCachedInput: z.string(),
    timeoutMs: z.number(),
    maxRetries: z.number(),
    defaultMaxTokens: z.number(),
    capabilities: z.record(z.string(), z.unknown()),
    reasoning: z.object({ enabled: z.boolean(), effort: z.string().nullable() }),
    thinking: z.boolean().nullable(),
  })
  .nullable()
  .describe("the gateway registry's entry; null when it has none of that name");

export const runFactsDto = z.object({
  spec: z.record(z.string(), z.unknown()).describe('the validated spec as stored'),
  seed: z.number().int(),
  registry: z.string().nullable().describe('the setting that named the registry, e.g. PRECIS_MODELS'),
  models: z.array(
    z.object({
      name: z.string(),
      uses: z.array(z.string()).describe('where the spec names it, e.g. systems[0].model'),
      calls: z.number(),
      modelIds: z.array(z.string()).describe("the provider model ids the run's calls went to"),
      entry: modelEntryDto,
    }),
  ),
  templates: z.array(
    z.object({
      id: z.string(),
      family: z.string(),
      version: z.string().describe('with "+override.<digest>" when the spec overrides it'),
      description: z.string(),
      overridden: z.boolean(),
      system: z.string().nullable(),
      user: z.string(),
    }),
  ),
  ledgerVersions: z
    .array(z.object({ version: z.string(), calls: z.number() }))
    .describe("template versions the run's calls were made with"),
});
