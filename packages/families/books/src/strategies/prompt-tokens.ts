import { createHash } from 'node:crypto';
import { type PromptTemplate, renderTemplate } from '@precis/prompts';
import { countTokens } from '@precis/text';

// Tokens of a rendered prompt: every message's content plus a small per-message overhead,
// as chat formats add role markers.
const PER_MESSAGE_OVERHEAD = 4;

// Planners re-plan a document after every finished step and re-derive the same merge groups;
// counting is the expensive part (BPE over long prompts), so counts are memoized by content.
const memo = new Map<string, number>();
const MEMO_LIMIT = 20_000;

export function promptTokens(
  template: PromptTemplate,
  vars: Record<string, string | number>,
  encoding: 'cl100k_base' | 'o200k_base',
): number {
  const messages = renderTemplate(template, vars);
  const key = createHash('sha256')
    .update(encoding)
    .update('\u0000')
    .update(messages.map((m) => `${m.role}\u0000${m.content}`).join('\u0001'))
    .digest('hex');
  const hit = memo.get(key);
  if (hit !== undefined) return hit;
  const count = messages.reduce((sum, m) => sum + countTokens(m.content, encoding) + PER_MESSAGE_OVERHEAD, 0);
  if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!);
  memo.set(key, count);
  return count;
}
