import { LlmError, LlmLengthError, LlmResponseError } from '../errors.js';
import type { ModelSpec } from '../registry/model-spec.js';
import type { LlmClient } from './llm-client.js';

export interface PreflightOptions {
  // The run the preflight requests are recorded (and their cost counted) against.
  runId?: string;
  signal?: AbortSignal;
  // false: only the name and key-variable checks, no request (`--no-preflight`).
  request?: boolean;
}

// More than one model failed its preflight: every failure, one line each.
export class PreflightError extends LlmError {
  constructor(readonly failures: LlmError[]) {
    super(
      `${failures.length} models failed their preflight:\n${failures.map((f) => `  ${f.message}`).join('\n')}`,
      failures.map((f) => f.model).join(', '),
      failures.every((f) => f.retryable),
    );
  }
}

// Checks, before a run creates any task, that each model it needs can be called: the name is in
// the registry and its key variable is set (no request yet), then one cheap request (max_tokens 1,
// not from the cache) per distinct endpoint + model, retried like any call, recorded in the ledger
// under `runId`. Throws the one failure (PermanentModelError, MissingApiKeyError, LlmConfigError,
// or a transient error that outlasted its retries), or a PreflightError listing several. With
// `request: false` only the checks before the request are made.
export async function preflightModels(
  client: LlmClient,
  models: readonly string[],
  opts: PreflightOptions = {},
): Promise<void> {
  const names = [...new Set(models)];
  const unusable: LlmError[] = [];
  const targets = new Map<string, ModelSpec>();
  for (const name of names) {
    try {
      client.checkUsable(name);
      const spec = client.registry.get(name);
      targets.set(
        `${spec.baseURL}\u0000${spec.apiKeyEnv ?? ''}\u0000${spec.modelId}\u0000${spec.kind}`,
        spec,
      );
    } catch (err) {
      unusable.push(asLlmError(err, name));
    }
  }
  if (unusable.length) throw oneError(unusable);
  if (opts.request === false) return;
  const outcomes = await Promise.allSettled([...targets.values()].map((spec) => ping(client, spec, opts)));
  const failures = outcomes.flatMap((o, k) =>
    o.status === 'rejected' ? [asLlmError(o.reason, [...targets.values()][k]!.name)] : [],
  );
  if (failures.length) throw oneError(failures);
}

async function ping(client: LlmClient, spec: ModelSpec, opts: PreflightOptions): Promise<void> {
  const common = { model: spec.name, cache: false, runId: opts.runId, signal: opts.signal };
  if (spec.kind === 'embedding') await client.embed({ ...common, input: ['ping'] });
  else
    await client
      .chat({
        ...common,
        messages: [{ role: 'user', content: 'ping' }],
        maxTokens: 1,
        templateVersion: 'preflight',
      })
      .catch((err: unknown) => {
        // One token is expected to cut the reply (a reasoning model spends it thinking): it answered.
        if (!(err instanceof LlmLengthError)) throw err;
      });
}

function oneError(errors: LlmError[]): LlmError {
  return errors.length === 1 ? errors[0]! : new PreflightError(errors);
}

function asLlmError(err: unknown, model: string): LlmError {
  return err instanceof LlmError ? err : new LlmResponseError(String(err), model);
}
