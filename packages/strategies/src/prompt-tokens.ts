import { type PromptTemplate, renderTemplate } from '@precis/prompts';
import { countTokens } from '@precis/text';

// Tokens of a rendered prompt: every message's content plus a small per-message overhead,
// as chat formats add role markers.
const PER_MESSAGE_OVERHEAD = 4;

export function promptTokens(
  template: PromptTemplate,
  vars: Record<string, string | number>,
  encoding: 'cl100k_base' | 'o200k_base',
): number {
  return renderTemplate(template, vars).reduce(
    (sum, m) => sum + countTokens(m.content, encoding) + PER_MESSAGE_OVERHEAD,
    0,
  );
}
