import { describe, expect, it } from '@jest/globals';
import {
  parseFeedbackChoice,
  parseKgdsSummary,
  parseNumberedErrorTypes,
  parseNumberedVerdicts,
} from './kgds.parsers.js';

describe('parseKgdsSummary', () => {
  const article = [2, 3, 4, 6, 7];

  it('reads EBS indices, keeping those outside the article apart and duplicates once', () => {
    const out =
      '```json\n{"background_paragraphs": [3, 2, 9, 3], "opinion_summary": " Person1 thinks X. "}\n```';
    expect(parseKgdsSummary(out, 'ebs-aos', article)).toEqual({
      ebs: [3, 2],
      outsideArticle: [9],
      aos: 'Person1 thinks X.',
    });
  });

  it('refuses indices given as strings or fractions', () => {
    expect(() =>
      parseKgdsSummary('{"background_paragraphs": ["3"], "opinion_summary": "x"}', 'ebs-aos', article),
    ).toThrow('kgds.summary.ebs-aos: background_paragraphs[0] is "3", not an integer paragraph index');
    expect(() =>
      parseKgdsSummary('{"background_paragraphs": [2.5], "opinion_summary": "x"}', 'ebs-aos', article),
    ).toThrow('background_paragraphs[0] is 2.5, not an integer paragraph index');
  });

  it('reads ABS-AOS and refuses a missing or empty field, malformed JSON and a refusal', () => {
    expect(
      parseKgdsSummary('{"background_summary": "B.", "opinion_summary": "O."}', 'abs-aos', article),
    ).toEqual({
      abs: 'B.',
      aos: 'O.',
    });
    expect(() =>
      parseKgdsSummary('{"background_summary": "", "opinion_summary": "O."}', 'abs-aos', article),
    ).toThrow('kgds.summary.abs-aos: "background_summary" must be a non-empty string');
    expect(() =>
      parseKgdsSummary('{"background_summary": "B", "opinion_summary": ', 'abs-aos', article),
    ).toThrow('kgds.summary.abs-aos: no JSON object in the reply');
    expect(() => parseKgdsSummary("I'm sorry, I can't help with that.", 'ebs-aos', article)).toThrow(
      'kgds.summary.ebs-aos: no JSON object in the reply',
    );
  });
});

describe('numbered answers', () => {
  it('reads one yes/no per item in any order and format variant', () => {
    expect(parseNumberedVerdicts('2: no\n1. Yes\n3) yes.', 3, 't')).toEqual([true, false, true]);
  });

  it('refuses a wrong count, a repeated or out-of-range number and other words', () => {
    expect(() => parseNumberedVerdicts('1. yes\n2. no', 3, 't')).toThrow('t: 2 numbered answers for 3 items');
    expect(() => parseNumberedVerdicts('1. yes\n1. no', 2, 't')).toThrow('t: item 1 answered twice');
    expect(() => parseNumberedVerdicts('1. yes\n4. no', 2, 't')).toThrow(
      't: answer numbered 4, but there are 2 items',
    );
    expect(() => parseNumberedVerdicts('1. maybe', 1, 't')).toThrow(
      't: item 1: expected yes or no, got "maybe"',
    );
  });

  it('reads error types and refuses unknown ones', () => {
    expect(parseNumberedErrorTypes('1. IRU\n2. om (wrong speaker)', 2, 't')).toEqual(['IRU', 'OM']);
    expect(() => parseNumberedErrorTypes('1. XYZ', 1, 't')).toThrow(
      't: item 1: expected one of OFI, OSD, IRU, IRIC, OM, got "XYZ"',
    );
  });

  it('reads the feedback choice', () => {
    expect(parseFeedbackChoice('{"better": "b"}')).toBe('B');
    expect(() => parseFeedbackChoice('{"better": "both"}')).toThrow(
      '"better" must be "A" or "B", got "both"',
    );
  });
});
