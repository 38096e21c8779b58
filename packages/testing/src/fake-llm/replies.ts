import { hashSeed } from './rng.js';
import { tokenPieces } from './tokens.js';
import type {
  FakeChatMessage,
  FakeReply,
  FakeReplyContext,
  FakeReplyObject,
  FakeRule,
  FakeTokenLogprob,
} from './types.js';

// Decides what the fake model says: scripted queues first (per model, then global), then the
// first matching rule, then the configured default reply, then an echo of the last user message.
export class ReplyBook {
  private readonly queues = new Map<string, FakeReply[]>();
  private readonly globalQueue: FakeReply[] = [];
  rules: FakeRule[];
  defaultReply: string | undefined;

  constructor(rules: FakeRule[] = [], defaultReply?: string) {
    this.rules = rules;
    this.defaultReply = defaultReply;
  }

  enqueue(replies: FakeReply[], model?: string): void {
    if (model === undefined) {
      this.globalQueue.push(...replies);
      return;
    }
    const q = this.queues.get(model) ?? [];
    q.push(...replies);
    this.queues.set(model, q);
  }

  clearQueues(): void {
    this.queues.clear();
    this.globalQueue.length = 0;
  }

  pendingScripted(): number {
    let n = this.globalQueue.length;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  // Rule that applies to the request (used for per-rule latency before replies are drawn).
  matchRule(ctx: Omit<FakeReplyContext, 'choiceIndex'>): FakeRule | undefined {
    const transcript = transcriptOf(ctx.messages);
    return this.rules.find((r) => {
      if (r.model !== undefined) {
        if (typeof r.model === 'string' ? r.model !== ctx.model : !r.model.test(ctx.model)) return false;
      }
      return r.match === undefined || r.match.test(transcript);
    });
  }

  next(ctx: FakeReplyContext, rule: FakeRule | undefined): FakeReplyObject {
    const scripted = this.queues.get(ctx.model)?.shift() ?? this.globalQueue.shift();
    if (scripted !== undefined) return normalize(scripted);
    if (rule) return normalize(typeof rule.reply === 'function' ? rule.reply(ctx) : rule.reply);
    if (this.defaultReply !== undefined) return { content: this.defaultReply };
    const suffix = ctx.choiceIndex > 0 ? ` #${ctx.choiceIndex}` : '';
    return { content: `echo: ${ctx.lastUser.slice(0, 200)}${suffix}` };
  }
}

// What a rule's `match` is tested against: one "role: content" line per message.
export function transcriptOf(messages: readonly FakeChatMessage[]): string {
  return messages.map((m) => `${m.role}: ${m.content}`).join('\n');
}

function normalize(r: FakeReply): FakeReplyObject {
  return typeof r === 'string' ? { content: r } : r;
}

// OpenAI-shaped logprobs for a reply: fixed values where the reply gives them, otherwise
// deterministic synthetic ones (chosen token most likely, alternatives strictly below it).
export function buildLogprobs(reply: FakeReplyObject, topLogprobs: number) {
  const pieces = tokenPieces(reply.content);
  const content = pieces.map((token, j) => {
    const fixed: FakeTokenLogprob | undefined = reply.logprobs?.[j];
    const logprob = fixed?.logprob ?? -((hashSeed(`${j}:${token}`) % 1000) / 2000);
    const top = fixed?.top
      ? fixed.top.slice(0, topLogprobs)
      : [
          { token, logprob },
          ...Array.from({ length: Math.max(0, topLogprobs - 1) }, (_, k) => ({
            token: `alt${k + 1}`,
            logprob: logprob - 1 - k,
          })),
        ].slice(0, topLogprobs);
    return {
      token: fixed?.token ?? token,
      logprob,
      bytes: [...Buffer.from(fixed?.token ?? token, 'utf8')],
      top_logprobs: top.map((t) => ({
        token: t.token,
        logprob: t.logprob,
        bytes: [...Buffer.from(t.token)],
      })),
    };
  });
  return { content, refusal: null };
}
