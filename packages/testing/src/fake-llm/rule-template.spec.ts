import { describe, expect, it } from '@jest/globals';
import { parseRules } from './rules-file.js';
import type { FakeReplyContext, FakeRule } from './types.js';

const ctx = (user: string): FakeReplyContext => ({
  model: 'm',
  messages: [
    { role: 'system', content: 'You verify facts.' },
    { role: 'user', content: user },
  ],
  lastUser: user,
  choiceIndex: 0,
  requestIndex: 0,
  body: {},
});

const reply = (rule: FakeRule, user: string) => {
  if (typeof rule.reply !== 'function') throw new Error('expected a reply function');
  return rule.reply(ctx(user));
};

describe('rules-file templates', () => {
  it('writes the groups of match into the reply, numbered groups, named ones and $$', () => {
    const [rule] = parseRules([
      {
        match: 'Facts about (?<topic>\\w+), numbered 1 to (\\d+)',
        reply: { template: '$<topic>: $2 facts, $$5' },
      },
    ]);
    expect(reply(rule!, 'Facts about kettles, numbered 1 to 3:')).toEqual({
      content: 'kettles: 3 facts, $5',
    });
  });

  it('repeats the template N times with {{i}} and the join, across messages', () => {
    const [rule, joined] = parseRules([
      { match: 'verify facts[\\s\\S]*numbered 1 to (\\d+)', reply: { template: '{{i}}. yes', repeat: '$1' } },
      {
        match: 'numbered 1 to (\\d+)',
        reply: { template: '{{i}}', repeat: '$1', join: ',', finishReason: 'length' },
      },
    ]);
    expect(reply(rule!, 'Facts, numbered 1 to 3:')).toEqual({ content: '1. yes\n2. yes\n3. yes' });
    expect(reply(joined!, 'numbered 1 to 4')).toEqual({ content: '1,2,3,4', finishReason: 'length' });
    expect(reply(joined!, 'numbered 1 to 0')).toEqual({ content: '', finishReason: 'length' });
  });

  it('answers an empty text for a group that took no part', () => {
    const [rule] = parseRules([{ match: 'a(b)?', reply: { template: '[$1]' } }]);
    expect(reply(rule!, 'a')).toEqual({ content: '[]' });
  });

  it('refuses a template that needs a match, and a repeat that is not a count', () => {
    expect(() => parseRules([{ reply: { template: '$1' } }], 'r.json')).toThrow(
      `r.json[0].reply: $1 or $<name> needs the rule's "match" regex`,
    );
    expect(() => parseRules([{ match: 'x', reply: { template: 'x', repeat: 3 } }], 'r.json')).toThrow(
      'r.json[0].reply.repeat: expected a string such as "$1"',
    );
    expect(() => parseRules([{ match: 'x', reply: { nope: 1 } }], 'r.json')).toThrow(
      'r.json[0].reply: expected a string, { "content": "..." } or { "template": "..." }',
    );
    const [rule] = parseRules([{ match: 'count (\\w+)', reply: { template: 'x', repeat: '$1' } }], 'r.json');
    expect(() => reply(rule!, 'count many')).toThrow(
      'r.json[0].reply.repeat: "many" is not a count from 0 to 10000',
    );
  });

  it('keeps plain replies and ignores a comment', () => {
    const [rule] = parseRules([{ comment: 'why', match: 'x', reply: 'plain $1' }]);
    expect(rule!.reply).toBe('plain $1');
  });
});
