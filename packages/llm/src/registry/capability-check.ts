import type { ModelRegistry, ModelSpec } from './model-spec.js';
import { acceptsTemperature, describeTemperature, type ModelCapabilities } from './providers.js';

// One way a spec has a model called, declared by the code that makes the calls (a family's
// metric, the engine for a system's summarizer). The preflight checks it against the model's
// capabilities before any request, so a run never fails on its first judge call.
export interface ModelUse {
  // Where the spec asks for it, e.g. "metrics[0] (booookscore judge)".
  where: string;
  // Registry name.
  model: string;
  // Who sends the calls, as a problem names it, e.g. "the judge".
  role: string;
  // How a fix that changes the model begins: "judge with" -> "judge with another model".
  changeModel: string;
  temperature?: number;
  // The calls run as well at the model's own temperature (a summarizer): never a problem.
  anyTemperature?: boolean;
  // The spec field that sets `temperature`; without one, `temperatureFix` says what else the
  // spec can change (e.g. "set metrics[1].family: op-i or op").
  temperatureField?: string;
  temperatureFix?: string;
  // Token logprobs with `top` alternatives per token; `fix`: what the spec sets to go without.
  logprobs?: { top: number; fix: string };
}

export const describeModel = (spec: ModelSpec) => `model "${spec.name}" (${spec.provider}, ${spec.modelId})`;

// The temperature nearest `t` that the model takes.
function nearestTemperature(caps: ModelCapabilities, t: number): number {
  const range = caps.temperature;
  return 'fixed' in range ? range.fixed : Math.min(range.max, Math.max(range.min, t));
}

function temperatureProblem(spec: ModelSpec, use: ModelUse, t: number): string {
  const caps = spec.capabilities;
  const head = `${use.where}: ${describeModel(spec)} takes ${describeTemperature(caps)}, but ${use.role} asks for temperature ${t}`;
  if (use.temperatureField) {
    const v = nearestTemperature(caps, t);
    return `${head}; set ${use.temperatureField}: ${v} (${use.role} then samples at ${v}) or ${use.changeModel} another model`;
  }
  const fix = use.temperatureFix ? `${use.temperatureFix} or ` : '';
  return `${head}; ${fix}${use.changeModel} a model that takes temperature ${t}`;
}

function logprobsProblem(spec: ModelSpec, use: ModelUse, want: NonNullable<ModelUse['logprobs']>) {
  const caps = spec.capabilities;
  if (caps.logprobs !== 'honoured') {
    const does = caps.logprobs === 'refused' ? 'refuses' : 'ignores';
    return `${use.where}: ${describeModel(spec)} returns no logprobs (its provider ${does} them); ${want.fix} or ${use.changeModel} a model whose provider returns logprobs`;
  }
  if (want.top > caps.maxTopLogprobs)
    return `${use.where}: ${describeModel(spec)} returns at most ${caps.maxTopLogprobs} top_logprobs, but ${use.role} asks for ${want.top}; ${want.fix} or ${use.changeModel} a model that returns ${want.top}`;
  return null;
}

// What `use` asks of the model that it cannot do, one line each (none: it can serve the calls).
export function capabilityProblems(spec: ModelSpec, use: ModelUse): string[] {
  const problems: string[] = [];
  const t = use.temperature;
  if (t !== undefined && !use.anyTemperature && !acceptsTemperature(spec.capabilities, t))
    problems.push(temperatureProblem(spec, use, t));
  const logprobs = use.logprobs && logprobsProblem(spec, use, use.logprobs);
  if (logprobs) problems.push(logprobs);
  return problems;
}

// Every problem of every use whose model the registry holds (a missing model is the spec
// check's to report).
export function modelUseProblems(registry: ModelRegistry, uses: readonly ModelUse[]): string[] {
  return uses.flatMap((use) => {
    const spec = registry.models.get(use.model);
    return spec ? capabilityProblems(spec, use) : [];
  });
}

// The refusal a run prints: one problem on its line, several under a header; `note` ends the
// first line (e.g. "(no run was created or resumed)").
export function describeCapabilityProblems(problems: readonly string[], note: string): string {
  if (problems.length === 1) return `${problems[0]} ${note}`;
  return `the spec asks its models for ${problems.length} things they cannot do ${note}:\n${problems.map((p) => `  ${p}`).join('\n')}`;
}
