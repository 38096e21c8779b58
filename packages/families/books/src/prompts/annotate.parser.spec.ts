import { describe, expect, it } from '@jest/globals';
import { OutputParseError } from '@precis/prompts';
import { parseBatchAnnotation, parseSentenceAnnotation } from './annotate.parser.js';

describe('parseSentenceAnnotation', () => {
  it('reads "no confusion"', () => {
    expect(parseSentenceAnnotation('{"confusing": false}')).toEqual({
      confusing: false,
      questions: [],
      types: [],
    });
  });

  it('reads questions and normalizes type names, inside a fence', () => {
    const out =
      'Here:\n```json\n{"confusing": true, "questions": "Who is Ned?", "types": ["Entity-Omission", "entity omission"]}\n```';
    expect(parseSentenceAnnotation(out)).toEqual({
      confusing: true,
      questions: ['Who is Ned?'],
      types: ['entity omission'],
    });
  });

  it.each([
    ['no JSON at all', 'The sentence is fine.'],
    ['truncated JSON', '{"confusing": tr'],
    ['missing verdict', '{"questions": []}'],
    ['verdict as string', '{"confusing": "no"}'],
    ['confusing without types', '{"confusing": true, "questions": ["why?"]}'],
    ['unknown type', '{"confusing": true, "questions": ["why?"], "types": ["plot hole"]}'],
    ['confusing without questions', '{"confusing": true, "types": ["salience"]}'],
  ])('fails explicitly on %s (never "no confusion")', (_, out) => {
    expect(() => parseSentenceAnnotation(out)).toThrow(OutputParseError);
  });
});

describe('parseBatchAnnotation', () => {
  it('returns one verdict per requested sentence number', () => {
    const out =
      '{"3": {"confusing": false}, "4": {"confusing": true, "questions": ["Why?"], "types": ["causal omission"]}}';
    const verdicts = parseBatchAnnotation(out, [3, 4]);
    expect(verdicts.get(3)?.confusing).toBe(false);
    expect(verdicts.get(4)?.types).toEqual(['causal omission']);
  });

  it('fails when a sentence is missing or an unasked one is answered', () => {
    expect(() => parseBatchAnnotation('{"3": {"confusing": false}}', [3, 4])).toThrow(
      /no answer for sentence\(s\) 4/,
    );
    expect(() => parseBatchAnnotation('{"3": {"confusing": false}, "9": {"confusing": false}}', [3])).toThrow(
      /not asked/,
    );
  });
});
