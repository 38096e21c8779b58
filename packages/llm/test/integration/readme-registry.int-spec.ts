import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parseModelRegistryText } from '../../src/index.js';

const README = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../README.md');

// The first YAML block of the README's "Models and providers" section.
function readmeRegistry(): string {
  const text = readFileSync(README, 'utf8');
  const section = text.slice(text.indexOf('\n## Models and providers\n'));
  const block = /```yaml\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('no YAML block in the README section "Models and providers"');
  return block[1]!;
}

describe('README: the ready registry entry per provider', () => {
  it('loads, one entry per provider, each resolved as the README says', () => {
    const registry = parseModelRegistryText(readmeRegistry(), 'README.md');
    const shown = registry.names().map((n) => {
      const m = registry.get(n);
      return [n, m.provider, m.capabilities.tokenParam, m.reasoning.enabled, m.thinking];
    });
    expect(shown).toEqual([
      ['gpt-5-mini', 'openai', 'max_completion_tokens', true, null],
      ['gpt-4o-mini', 'openai', 'max_completion_tokens', false, null],
      ['azure-gpt-4o-mini', 'azure-openai', 'max_completion_tokens', false, null],
      ['claude-sonnet', 'anthropic', 'max_tokens', false, null],
      ['gemini-flash', 'gemini', 'max_tokens', false, false],
      ['qwen3-vllm', 'vllm', 'max_tokens', false, false],
      ['qwen3-ollama', 'ollama', 'max_tokens', false, null],
      ['deepseek-r1', 'openrouter', 'max_tokens', false, null],
      ['llama-together', 'generic', 'max_tokens', false, null],
    ]);
    expect(registry.get('gpt-5-mini')).toMatchObject({
      reasoning: { enabled: true, effort: 'low' },
      pricePer1MCachedInput: '0.025',
      lengthRetryFactor: 2,
    });
    expect(registry.get('azure-gpt-4o-mini').azure).toEqual({
      deployment: 'gpt-4o-mini',
      apiVersion: '2024-10-21',
    });
  });
});
