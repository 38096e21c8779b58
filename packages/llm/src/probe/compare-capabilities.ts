import { acceptsTemperature, type ModelCapabilities } from '../registry/providers.js';
import type { CapabilityRow, ChatObservations, ProbedCapability } from './probe-types.js';

export function declaredTemperature(caps: ModelCapabilities): string {
  const t = caps.temperature;
  return 'fixed' in t ? `only ${t.fixed}` : `${t.min}..${t.max}`;
}

// One row per probed capability: the registry's resolved value beside what the endpoint did.
// Where one reply cannot tell declared values apart, the row agrees and its note says why.
export function compareCapabilities(caps: ModelCapabilities, o: ChatObservations): CapabilityRow[] {
  const refusal = (k: string) => o.refusals[k] ?? null;
  const row = (
    capability: ProbedCapability,
    declared: string,
    observed: string,
    agrees: boolean,
    note: string | null = refusal(capability),
    either = false,
  ): CapabilityRow => ({ capability, declared, observed, agrees, either, note });
  const zeroOk = acceptsTemperature(caps, 0);
  return [
    o.tokenParam === 'both'
      ? row('tokenParam', caps.tokenParam, 'both', true, 'both parameters accepted', true)
      : row('tokenParam', caps.tokenParam, o.tokenParam, o.tokenParam === caps.tokenParam),
    row(
      'temperature',
      declaredTemperature(caps),
      `0 ${o.temperatureZero}`,
      (o.temperatureZero === 'accepted') === zeroOk,
    ),
    row('n', caps.n, o.n, o.n === caps.n),
    row('logprobs', caps.logprobs, o.logprobs, o.logprobs === caps.logprobs),
    o.seed === 'accepted'
      ? row(
          'seed',
          caps.seed,
          'accepted',
          caps.seed !== 'refused',
          caps.seed === 'refused' ? null : 'accepted: one reply cannot tell honoured from ignored',
          caps.seed !== 'refused',
        )
      : row('seed', caps.seed, 'refused', caps.seed === 'refused'),
    o.reasoningText === 'none seen'
      ? row(
          'reasoningText',
          caps.reasoningText,
          'none seen',
          true,
          'no reasoning seen: not a thinking model, or its thinking is off',
          true,
        )
      : row('reasoningText', caps.reasoningText, o.reasoningText, o.reasoningText === caps.reasoningText),
  ];
}
