import type { CacheKeyParts } from '../cache-key.js';
import type { ModelSpec } from '../registry/model-spec.js';
import { checkContextWindow } from './context-window.js';
import { shapeParams } from './shape-request.js';
import type { ChatRequest } from './types.js';
import { validateChatRequest } from './validate-request.js';

export interface PreparedChat {
  spec: ModelSpec;
  n: number;
  // How the request was shaped to the model (see ShapedParams.notes).
  notes: string[];
  keyParts: Omit<CacheKeyParts, 'templateVersion'>;
  body(): Record<string, unknown>;
  // The prompt's length in characters (its messages joined by newlines), checked against the
  // model's context window on first use.
  promptChars(): number;
}

// A chat request validated, with its cache-key parts; the body and the context-window check
// are built only when a call goes out (a warm re-run never serializes the prompt again).
export function prepareChat(spec: ModelSpec, req: ChatRequest): PreparedChat {
  validateChatRequest(req, spec.name);
  const n = req.n ?? 1;
  const { params, notes } = shapeParams(spec, req, n);
  const messages = req.messages.map((m) => ({ role: m.role, content: m.content }));
  let body: Record<string, unknown> | undefined;
  let promptChars: number | undefined;
  return {
    spec,
    n,
    notes,
    keyParts: { kind: 'chat', modelId: spec.modelId, params, payload: messages },
    body: () => {
      if (body === undefined) {
        // The request body: the messages as they are (plain strings), the params that are set.
        body = { model: spec.modelId, messages };
        for (const [k, v] of Object.entries(params)) if (v !== undefined) body[k] = v;
      }
      return body;
    },
    promptChars: () => {
      if (promptChars === undefined) {
        const chars = messages.reduce((sum, m) => sum + m.content.length, Math.max(0, messages.length - 1));
        checkContextWindow(spec, chars, () => messages.map((m) => m.content).join('\n'), req.maxTokens);
        promptChars = chars;
      }
      return promptChars;
    },
  };
}
