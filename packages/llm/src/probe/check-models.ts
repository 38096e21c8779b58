import { createOpenAiSdk } from '../client/openai-sdk.js';
import { MissingApiKeyError } from '../errors.js';
import type { ModelRegistry, ModelSpec } from '../registry/model-spec.js';
import { compareCapabilities } from './compare-capabilities.js';
import { probeChat } from './probe-chat.js';
import { ProbeSender } from './probe-sender.js';
import type { CapabilityRow, ModelCheck } from './probe-types.js';
import { suggestRegistryLines } from './registry-lines.js';

export interface CheckModelsOptions {
  registry: ModelRegistry;
  // Registry names to check (default: all, in registry order); each must be in the registry.
  models?: string[];
  // Where API keys are read from (default process.env).
  env?: Record<string, string | undefined>;
  // Randomness for backoff jitter (tests).
  random?: () => number;
}

// Probes each model's endpoint (models side by side, each at most its maxConcurrency at once)
// and compares what it did with what the registry declares.
export function checkModels(opts: CheckModelsOptions): Promise<ModelCheck[]> {
  const names = opts.models ?? opts.registry.names();
  const env = opts.env ?? process.env;
  return Promise.all(
    names.map((name) => checkModel(opts.registry, opts.registry.get(name), env, opts.random)),
  );
}

async function checkModel(
  registry: ModelRegistry,
  spec: ModelSpec,
  env: Record<string, string | undefined>,
  random?: () => number,
): Promise<ModelCheck> {
  const head = {
    model: spec.name,
    kind: spec.kind,
    provider: spec.provider,
    modelId: spec.modelId,
    baseURL: spec.baseURL,
  };
  const apiKey = spec.apiKeyEnv ? env[spec.apiKeyEnv] : undefined;
  if (spec.apiKeyEnv && !apiKey) {
    const problem = new MissingApiKeyError(spec.name, spec.baseURL, spec.apiKeyEnv, registry).message;
    return { ...head, status: 'unusable', problem, rows: [], suggestion: null, requests: 0 };
  }
  const sender = new ProbeSender(spec, createOpenAiSdk(spec, apiKey), apiKey ? [apiKey] : [], random);
  const done = (rest: Pick<ModelCheck, 'status' | 'problem' | 'rows' | 'suggestion'>): ModelCheck => ({
    ...head,
    ...rest,
    requests: sender.requests,
  });
  if (spec.kind === 'embedding') {
    const reply = await sender.embed({ model: spec.modelId, input: 'Hi' });
    if (reply.kind === 'unusable')
      return done({ status: 'unusable', problem: reply.message, rows: [], suggestion: null });
    const ok = reply.kind === 'ok';
    const row: CapabilityRow = {
      capability: 'embeddings',
      declared: 'embedding',
      observed: ok ? 'ok' : 'refused',
      agrees: ok,
      either: false,
      note: reply.kind === 'refused' ? reply.message : null,
    };
    return done({ status: ok ? 'ok' : 'mismatch', problem: null, rows: [row], suggestion: null });
  }
  const probed = await probeChat(spec, sender);
  if ('unusable' in probed)
    return done({ status: 'unusable', problem: probed.unusable, rows: [], suggestion: null });
  const rows = compareCapabilities(spec.capabilities, probed.observations);
  return done({
    status: rows.every((r) => r.agrees) ? 'ok' : 'mismatch',
    problem: null,
    rows,
    suggestion: suggestRegistryLines(spec, probed.observations),
  });
}
