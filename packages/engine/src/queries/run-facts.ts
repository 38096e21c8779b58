import type { RunEntity } from '@precis/db';
import { toNumber } from '@precis/db';
import { type ModelCapabilities, type ModelRegistry, type ModelSpec, redactSecretLooking } from '@precis/llm';
import type { DataSource } from 'typeorm';
import type { FamilyRegistry } from '../family/family-registry.js';
import { specModels } from '../planner/create-run.usecase.js';
import type { BenchmarkSpec } from '../spec/benchmark-spec.schema.js';
import { ledgerModelRows, ledgerTemplateVersionRows } from '../stores/ledger.store.js';
import { runTemplate } from '../templates/run-templates.js';

// A registry entry as the run page shows it: what the model is and costs, never a key (the
// name of the variable holding it only) nor the extra body fields sent verbatim.
export interface ModelEntryView {
  name: string;
  kind: string;
  provider: string;
  modelId: string;
  baseURL: string;
  apiKeyEnv: string | null;
  contextWindow: number;
  maxConcurrency: number;
  requestsPerMinute: number | null;
  tokensPerMinute: number | null;
  pricePer1MInput: string;
  pricePer1MOutput: string;
  pricePer1MCachedInput: string;
  timeoutMs: number;
  maxRetries: number;
  defaultMaxTokens: number;
  capabilities: ModelCapabilities;
  reasoning: { enabled: boolean; effort: string | null };
  thinking: boolean | null;
}

export interface RunModelFact {
  name: string;
  // Where the spec names it, e.g. "systems[0].model".
  uses: string[];
  // Calls of the run's ledger and the provider model ids they went to.
  calls: number;
  modelIds: string[];
  // The entry in the serving process's registry; null when it has none of that name.
  entry: ModelEntryView | null;
}

export interface RunTemplateFact {
  id: string;
  family: string;
  // The version tasks and cache keys carry: the built-in one, or derived from an override's text.
  version: string;
  description: string;
  overridden: boolean;
  system: string | null;
  user: string;
}

export interface RunFacts {
  // The validated spec as stored when the run was created.
  spec: Record<string, unknown>;
  seed: number;
  // Where the entries come from (the setting that named the registry), or null without one.
  registry: string | null;
  models: RunModelFact[];
  // The templates of the families the run's systems and metrics belong to.
  templates: RunTemplateFact[];
  // Template versions the run's calls were made with (re-asks and samples suffixed), with counts.
  ledgerVersions: { version: string; calls: number }[];
}

// A base URL without user info, and with anything that looks like a key masked.
export function safeBaseUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = '';
    url.password = '';
    return redactSecretLooking(url.toString());
  } catch {
    return redactSecretLooking(raw);
  }
}

export function modelEntryView(m: ModelSpec): ModelEntryView {
  return {
    name: m.name,
    kind: m.kind,
    provider: m.provider,
    modelId: m.modelId,
    baseURL: safeBaseUrl(m.baseURL),
    apiKeyEnv: m.apiKeyEnv,
    contextWindow: m.contextWindow,
    maxConcurrency: m.maxConcurrency,
    requestsPerMinute: m.requestsPerMinute,
    tokensPerMinute: m.tokensPerMinute,
    pricePer1MInput: m.pricePer1MInput,
    pricePer1MOutput: m.pricePer1MOutput,
    pricePer1MCachedInput: m.pricePer1MCachedInput,
    timeoutMs: m.timeoutMs,
    maxRetries: m.maxRetries,
    defaultMaxTokens: m.defaultMaxTokens,
    capabilities: m.capabilities,
    reasoning: { enabled: m.reasoning.enabled, effort: m.reasoning.effort },
    thinking: m.thinking,
  };
}

// The templates of the families whose strategies, system sources or metrics the spec names, with
// the spec's overrides applied.
function runTemplates(families: FamilyRegistry, spec: BenchmarkSpec): RunTemplateFact[] {
  const strategies = new Set(spec.systems.map((s) => s.strategy));
  const sources = new Set(spec.systems.map((s) => s.source).filter((s) => typeof s === 'string'));
  const metrics = new Set(spec.metrics.map((m) => m.name));
  const used = families.families.filter(
    (f) =>
      f.strategies?.some((s) => strategies.has(s.name)) ||
      f.sources?.some((s) => sources.has(s.source)) ||
      f.metrics?.some((m) => metrics.has(m.name)),
  );
  return used.flatMap((f) =>
    (f.templates ?? []).map((base) => {
      const t = runTemplate(base, spec.templateOverrides);
      return {
        id: t.id,
        family: f.name,
        version: t.version,
        description: t.description,
        overridden: t !== base,
        system: t.system ?? null,
        user: t.user,
      };
    }),
  );
}

async function ledgerModels(db: DataSource, runId: string) {
  const rows = await ledgerModelRows(db, runId);
  return rows.map((r) => ({ model: r.model, modelId: r.model_id, calls: toNumber(r.calls) }));
}

// The models a run names or called: where the spec names each, what the ledger recorded, and
// its entry in `registry` (the serving process's).
async function runModels(
  db: DataSource,
  run: RunEntity,
  registry: ModelRegistry | undefined,
): Promise<RunModelFact[]> {
  const spec = run.spec as unknown as BenchmarkSpec;
  const named = specModels(spec);
  const ledger = await ledgerModels(db, run.id);
  const names = [...new Set([...named.map((n) => n.model), ...ledger.map((l) => l.model)])];
  return names.map((name) => {
    const calls = ledger.filter((l) => l.model === name);
    const spec = registry?.models.get(name);
    return {
      name,
      uses: named.filter((n) => n.model === name).map((n) => n.where),
      calls: calls.reduce((sum, l) => sum + l.calls, 0),
      modelIds: calls.map((l) => l.modelId),
      entry: spec ? modelEntryView(spec) : null,
    };
  });
}

export async function runFacts(
  families: FamilyRegistry,
  db: DataSource,
  run: RunEntity,
  registry: ModelRegistry | undefined,
): Promise<RunFacts> {
  const spec = run.spec as unknown as BenchmarkSpec;
  const versions = await ledgerTemplateVersionRows(db, run.id);
  return {
    spec: run.spec,
    seed: spec.seed,
    registry: registry ? (registry.setting ?? 'a registry file') : null,
    models: await runModels(db, run, registry),
    templates: runTemplates(families, spec),
    ledgerVersions: versions.map((v) => ({ version: v.template_version, calls: toNumber(v.calls) })),
  };
}
