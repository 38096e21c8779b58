import { LlmConfigError } from '../errors.js';
import type { ChatRequest, EmbedRequest } from './types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function common(req: { runId?: string }, model: string): void {
  if (req.runId !== undefined && !UUID.test(req.runId)) {
    throw new LlmConfigError(`runId must be a UUID (the run's id), got "${req.runId}"`, model);
  }
}

export function validateChatRequest(req: ChatRequest, model: string): void {
  common(req, model);
  if (!Array.isArray(req.messages) || req.messages.length === 0) {
    throw new LlmConfigError(`chat call to "${model}" needs at least one message`, model);
  }
  req.messages.forEach((m, i) => {
    if (!['system', 'user', 'assistant'].includes(m.role) || typeof m.content !== 'string') {
      throw new LlmConfigError(
        `chat call to "${model}": messages[${i}] needs role system|user|assistant and string content`,
        model,
      );
    }
  });
  if (req.n !== undefined && (!Number.isInteger(req.n) || req.n < 1)) {
    throw new LlmConfigError(`chat call to "${model}": n must be a positive integer, got ${req.n}`, model);
  }
  if (
    req.topLogprobs !== undefined &&
    (!Number.isInteger(req.topLogprobs) || req.topLogprobs < 0 || req.topLogprobs > 20)
  ) {
    throw new LlmConfigError(`chat call to "${model}": topLogprobs must be an integer in 0..20`, model);
  }
}

export function validateEmbedRequest(req: EmbedRequest, model: string): void {
  common(req, model);
  if (!Array.isArray(req.input) || req.input.length === 0 || req.input.some((s) => typeof s !== 'string')) {
    throw new LlmConfigError(`embedding call to "${model}" needs a non-empty array of strings`, model);
  }
}
