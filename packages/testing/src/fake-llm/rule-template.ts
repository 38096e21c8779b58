import { transcriptOf } from './replies.js';
import type { FakeReplyContext, FakeReplyObject } from './types.js';

// A rules-file reply written from the request: { "template": "...", "repeat"?: "$1", "join"?: "\n" }.
// $1..$9 and $<name> are the groups of the rule's `match` in the transcript ('' when a group took
// no part), $$ is a dollar; with `repeat`, the template is written N times (N: the repeat text after
// substitution), {{i}} numbering the copies 1..N, joined by `join` (default a line break).
export interface RuleTemplate {
  template: string;
  repeat?: string;
  join?: string;
  finishReason?: FakeReplyObject['finishReason'];
}

const MAX_REPEAT = 10_000;
const REFERENCE = /\$(\$|\d|<[A-Za-z_][A-Za-z0-9_]*>)/g;

export function parseRuleTemplate(
  raw: Record<string, unknown>,
  match: RegExp | undefined,
  at: string,
): RuleTemplate {
  const { template, repeat, join, finishReason } = raw;
  if (typeof template !== 'string') throw new Error(`${at}.template: expected a string`);
  if (repeat !== undefined && typeof repeat !== 'string')
    throw new Error(`${at}.repeat: expected a string such as "$1"`);
  if (join !== undefined && typeof join !== 'string') throw new Error(`${at}.join: expected a string`);
  const usesGroups = [template, repeat ?? ''].some((t) =>
    [...t.matchAll(REFERENCE)].some((m) => m[1] !== '$'),
  );
  if (usesGroups && !match) throw new Error(`${at}: $1 or $<name> needs the rule's "match" regex`);
  return {
    template,
    repeat,
    join,
    finishReason: finishReason as FakeReplyObject['finishReason'],
  };
}

function substitute(text: string, groups: RegExpExecArray | null): string {
  return text.replace(REFERENCE, (_, ref: string) => {
    if (ref === '$') return '$';
    if (ref.startsWith('<')) return groups?.groups?.[ref.slice(1, -1)] ?? '';
    return groups?.[Number(ref)] ?? '';
  });
}

// The reply for one request; a repeat that is not a count names the rule (the server answers 500).
export function renderRuleTemplate(
  t: RuleTemplate,
  match: RegExp | undefined,
  ctx: FakeReplyContext,
  at: string,
): FakeReplyObject {
  // A fresh RegExp: a "g" or "y" flag must not carry lastIndex from one request to the next.
  const groups = match ? new RegExp(match.source, match.flags).exec(transcriptOf(ctx.messages)) : null;
  let content = substitute(t.template, groups);
  if (t.repeat !== undefined) {
    const text = substitute(t.repeat, groups).trim();
    const n = Number(text);
    if (!/^\d+$/.test(text) || n > MAX_REPEAT)
      throw new Error(`${at}.repeat: "${text}" is not a count from 0 to ${MAX_REPEAT}`);
    const copy = substitute(t.template, groups);
    content = Array.from({ length: n }, (_, i) => copy.replaceAll('{{i}}', String(i + 1))).join(
      t.join ?? '\n',
    );
  }
  return t.finishReason ? { content, finishReason: t.finishReason } : { content };
}
