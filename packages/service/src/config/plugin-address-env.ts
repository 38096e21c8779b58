import { PLUGIN_ADDRESS_PATTERNS_HINT, PluginAddressPatternError, PluginAddressPolicy } from '@precis/engine';
import { EnvValueError, type EnvVar } from './env-schema.js';

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
    parse(raw) {
      try {
        return PluginAddressPolicy.parse(raw);
      } catch (err) {
        if (err instanceof PluginAddressPatternError) throw new EnvValueError(err.message);
        throw err;
      }
    },
    show: (policy) => policy.patterns.join(','),
  };
  return { PRECIS_PLUGIN_ADDRESSES: addresses };
}

export type PluginAddressEnvSchema = ReturnType<typeof pluginAddressEnv>;
