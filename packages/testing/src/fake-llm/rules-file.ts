import { readFileSync } from 'node:fs';
import { parseRuleTemplate, renderRuleTemplate } from './rule-template.js';
import type { FakeReplySource, FakeRule } from './types.js';

// Rules for the CLI, as JSON: [{ "model"?: "id" | { "regex": "..." }, "match"?: "regex",
// "flags"?: "i", "reply": "text" | { "content": "text", "finishReason"?: ... }
// | { "template": "text with $1", "repeat"?: "$1", "join"?: "\n" }, "latencyMs"?: n }]
// (rule-template.ts: a reply written from the groups of `match`).
export function loadRulesFile(file: string): FakeRule[] {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`${file}: cannot read rules (${(err as Error).message})`);
  }
  return parseRules(data, file);
}

export function parseRules(data: unknown, where = 'rules'): FakeRule[] {
  if (!Array.isArray(data)) throw new Error(`${where}: expected a JSON array of rules`);
  return data.map((raw, i) => {
    const at = `${where}[${i}]`;
    if (!raw || typeof raw !== 'object') throw new Error(`${at}: expected an object`);
    const r = raw as Record<string, unknown>;
    const flags = typeof r.flags === 'string' ? r.flags : '';
    const rule: FakeRule = { reply: '' };
    if (typeof r.model === 'string') rule.model = r.model;
    else if (r.model && typeof (r.model as { regex?: unknown }).regex === 'string') {
      rule.model = compile((r.model as { regex: string }).regex, flags, `${at}.model.regex`);
    } else if (r.model !== undefined) throw new Error(`${at}.model: expected a string or { "regex": "..." }`);
    if (r.match !== undefined) {
      if (typeof r.match !== 'string') throw new Error(`${at}.match: expected a regex string`);
      rule.match = compile(r.match, flags, `${at}.match`);
    }
    rule.reply = parseReply(r.reply, rule.match, `${at}.reply`);
    if (r.latencyMs !== undefined) {
      if (typeof r.latencyMs !== 'number' || r.latencyMs < 0)
        throw new Error(`${at}.latencyMs: expected a number >= 0`);
      rule.latencyMs = r.latencyMs;
    }
    return rule;
  });
}

function parseReply(v: unknown, match: RegExp | undefined, at: string): FakeReplySource {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && typeof (v as { content?: unknown }).content === 'string')
    return v as FakeReplySource;
  if (v && typeof v === 'object' && 'template' in v) {
    const template = parseRuleTemplate(v as Record<string, unknown>, match, at);
    return (ctx) => renderRuleTemplate(template, match, ctx, at);
  }
  throw new Error(`${at}: expected a string, { "content": "..." } or { "template": "..." }`);
}

function compile(source: string, flags: string, at: string): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (err) {
    throw new Error(`${at}: invalid regex (${(err as Error).message})`);
  }
}
