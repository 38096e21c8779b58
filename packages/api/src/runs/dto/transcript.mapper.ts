import type { GetRunFactsResponse, LedgerCall, ModelEntry } from '@precis/contracts';
import type { LedgerCallView, ModelEntryView, RunFacts } from '@precis/engine';

// The engine's transcript views as gRPC messages (the CLI maps them back: remote-transcript.ts).

export function toProtoLedgerCall(c: LedgerCallView): LedgerCall {
  return {
    id: c.id,
    taskId: c.taskId,
    stage: c.stage,
    system: c.system,
    model: c.model,
    modelId: c.modelId,
    kind: c.kind,
    status: c.status,
    cacheHit: c.cacheHit,
    calls: c.calls,
    templateVersion: c.templateVersion ?? '',
    createTime: new Date(c.createdAt),
    latencyMs: c.latencyMs,
    attempts: c.attempts,
    error: c.error ?? '',
    notes: c.notes,
    tokensIn: c.tokensIn,
    tokensCached: c.tokensCached,
    tokensOut: c.tokensOut,
    tokensReasoning: c.tokensReasoning,
    costUsd: c.costUsd,
    listCostUsd: c.listCostUsd,
    messages: c.messages,
    paramsJson: JSON.stringify(c.params),
    replies: c.replies.map((r) => ({
      text: r.text,
      ...(r.reasoning === null ? {} : { reasoning: r.reasoning }),
      finishReason: r.finishReason ?? '',
    })),
    responseJson: JSON.stringify(c.response ?? null),
    cachedFrom: c.cachedFrom.map((f) => ({
      id: f.id,
      runId: f.runId ?? '',
      taskId: f.taskId ?? '',
      createTime: new Date(f.createdAt),
    })),
  };
}

function toProtoModelEntry(e: ModelEntryView): ModelEntry {
  return {
    name: e.name,
    kind: e.kind,
    provider: e.provider,
    modelId: e.modelId,
    baseUrl: e.baseURL,
    apiKeyEnv: e.apiKeyEnv ?? '',
    contextWindow: e.contextWindow,
    maxConcurrency: e.maxConcurrency,
    ...(e.requestsPerMinute === null ? {} : { requestsPerMinute: e.requestsPerMinute }),
    ...(e.tokensPerMinute === null ? {} : { tokensPerMinute: e.tokensPerMinute }),
    pricePer1mInput: e.pricePer1MInput,
    pricePer1mOutput: e.pricePer1MOutput,
    pricePer1mCachedInput: e.pricePer1MCachedInput,
    timeoutMs: e.timeoutMs,
    maxRetries: e.maxRetries,
    defaultMaxTokens: e.defaultMaxTokens,
    capabilitiesJson: JSON.stringify(e.capabilities),
    reasoning: e.reasoning.enabled,
    reasoningEffort: e.reasoning.effort ?? '',
    ...(e.thinking === null ? {} : { thinking: e.thinking }),
  };
}

export function toProtoRunFacts(f: RunFacts): GetRunFactsResponse {
  return {
    specJson: JSON.stringify(f.spec),
    seed: f.seed,
    registry: f.registry ?? '',
    models: f.models.map((m) => ({
      name: m.name,
      uses: m.uses,
      calls: m.calls,
      modelIds: m.modelIds,
      entry: m.entry ? toProtoModelEntry(m.entry) : undefined,
    })),
    templates: f.templates.map((t) => ({
      id: t.id,
      family: t.family,
      version: t.version,
      description: t.description,
      overridden: t.overridden,
      ...(t.system === null ? {} : { system: t.system }),
      user: t.user,
    })),
    ledgerVersions: f.ledgerVersions,
  };
}
