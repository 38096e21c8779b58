import { PLUGIN_ADDRESS_PATTERNS_HINT, PluginAddressPatternError, PluginAddressPolicy } from '@precis/engine';
import { z } from 'zod';
import type { EnvVar } from './env-schema.js';

// The policy of a comma-separated list of patterns; a bad entry is named by the engine's message.
const policy = z.string().transform((raw, ctx) => {
  try {
    return PluginAddressPolicy.parse(raw);
  } catch (err) {
    if (!(err instanceof PluginAddressPatternError)) throw err;
    ctx.addIssue({ code: 'custom', message: err.message });
    return z.NEVER;
  }
});

// Variables of the processes that take submitted specs or call summarizer plugins (the gateway,
// `precis serve`, the summarization service): the plugin addresses they may call.
export function pluginAddressEnv() {
  const addresses: EnvVar<PluginAddressPolicy> = {
    type: 'plugin-address-list',
    description:
      'summarizer plugin addresses a submitted spec may name, comma-separated; unset = plugins off (the same list on the gateway and the summarization service)',
    default: PluginAddressPolicy.none(),
    optional: false,
    secret: false,
    expected: `a comma-separated list of ${PLUGIN_ADDRESS_PATTERNS_HINT}`,
    schema: policy,
    show: (policy) => policy.patterns.join(','),
  };
  return { PRECIS_PLUGIN_ADDRESSES: addresses };
}

export type PluginAddressEnvSchema = ReturnType<typeof pluginAddressEnv>;
