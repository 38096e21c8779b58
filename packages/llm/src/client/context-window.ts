import { countTokens } from '@precis/text';
import { LlmConfigError } from '../errors.js';
import type { ModelSpec } from '../registry/model-spec.js';

// Refuses a prompt that cannot fit the model's context window, before spending a request on it.
// The exact (tiktoken) count only runs when the cheap ~4 chars/token estimate (from `chars`, the
// prompt's length) gets close; only then is the prompt's text built (`text`).
export function checkContextWindow(
  spec: ModelSpec,
  chars: number,
  text: () => string,
  maxTokens: number | undefined,
): void {
  const reserve = maxTokens ?? 0;
  if (Math.ceil(chars / 4) + reserve < spec.contextWindow * 0.75) return;
  const prompt = countTokens(text());
  if (prompt + reserve > spec.contextWindow) {
    throw new LlmConfigError(
      `prompt for model "${spec.name}" has ~${prompt} tokens${reserve ? ` + maxTokens ${reserve}` : ''}, more than its context window of ${spec.contextWindow} (contextWindow in the registry); shorten the input or use smaller chunks`,
      spec.name,
    );
  }
}
