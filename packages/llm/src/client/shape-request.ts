import { ModelCapabilityError } from '../errors.js';
import { describeModel } from '../registry/capability-check.js';
import type { ModelSpec } from '../registry/model-spec.js';
import { acceptsTemperature, describeTemperature } from '../registry/providers.js';
import type { ChatRequest } from './types.js';

export interface ShapedParams {
  // The body fields besides model and messages, as sent (and hashed into the cache key).
  params: Record<string, unknown>;
  // What was left out or changed for this model, said in reports.
  notes: string[];
}

// The request's fields in the form the model's provider takes: the budget under its parameter,
// what it refuses or ignores left out where the method allows, a ModelCapabilityError where not.
export function shapeParams(spec: ModelSpec, req: ChatRequest, n: number): ShapedParams {
  const caps = spec.capabilities;
  const notes: string[] = [];
  const params: Record<string, unknown> = {
    temperature: shapeTemperature(spec, req, notes),
    top_p: shapeTopP(spec, req, notes),
    [caps.tokenParam]: req.maxTokens,
    // n = 1 is the default: leaving it out keeps the cache key the same either way.
    n: n > 1 ? n : undefined,
    // A seed the provider ignores or refuses is not sent: it would change nothing but the key.
    seed: caps.seed === 'honoured' ? req.seed : undefined,
    stop: req.stop,
    ...shapeLogprobs(spec, req),
  };
  if (spec.reasoning.effort) params.reasoning_effort = spec.reasoning.effort;
  if (spec.thinking === false && caps.thinkingOff) Object.assign(params, caps.thinkingOff);
  if (spec.extraBody) Object.assign(params, spec.extraBody);
  return { params, notes };
}

function shapeTemperature(spec: ModelSpec, req: ChatRequest, notes: string[]): number | undefined {
  const t = req.temperature;
  if (t === undefined || acceptsTemperature(spec.capabilities, t)) return t;
  const range = spec.capabilities.temperature;
  if (req.anyTemperature) {
    if ('fixed' in range) {
      notes.push(`sampled at the model's fixed temperature ${range.fixed} (asked ${t})`);
      return undefined;
    }
    const clamped = Math.min(range.max, Math.max(range.min, t));
    notes.push(`sampled at temperature ${clamped}, the nearest the model takes (asked ${t})`);
    return clamped;
  }
  throw new ModelCapabilityError(
    spec.name,
    'temperature',
    `${describeModel(spec)} takes ${describeTemperature(spec.capabilities)}; this call asks for temperature ${t}`,
  );
}

function shapeTopP(spec: ModelSpec, req: ChatRequest, notes: string[]): number | undefined {
  if (req.topP === undefined || spec.capabilities.topP === 'honoured') return req.topP;
  // 1 is every provider's default: leaving it out changes nothing.
  if (req.topP === 1) return undefined;
  if (req.anyTemperature) {
    notes.push(
      `top_p ${req.topP} not sent (the model ${spec.capabilities.topP === 'refused' ? 'refuses' : 'ignores'} it)`,
    );
    return undefined;
  }
  throw new ModelCapabilityError(
    spec.name,
    'top_p',
    `${describeModel(spec)} ${spec.capabilities.topP === 'refused' ? 'refuses' : 'ignores'} top_p; this call asks for top_p ${req.topP}`,
  );
}

function shapeLogprobs(spec: ModelSpec, req: ChatRequest): Record<string, unknown> {
  if (!req.logprobs && req.topLogprobs === undefined) return {};
  const caps = spec.capabilities;
  if (caps.logprobs !== 'honoured')
    throw new ModelCapabilityError(
      spec.name,
      'logprobs',
      `${describeModel(spec)} ${caps.logprobs === 'refused' ? 'refuses' : 'returns no'} logprobs; this call needs token logprobs`,
    );
  if ((req.topLogprobs ?? 0) > caps.maxTopLogprobs)
    throw new ModelCapabilityError(
      spec.name,
      'top_logprobs',
      `${describeModel(spec)} returns at most ${caps.maxTopLogprobs} top_logprobs; this call asks for ${req.topLogprobs}`,
    );
  return { logprobs: req.logprobs, top_logprobs: req.topLogprobs };
}
