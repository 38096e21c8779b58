import { describe, expect, it } from '@jest/globals';
import { OutputParseError } from '@precis/prompts';
import { parseScore } from './score.parser.js';
import { parseEvaluationSteps } from './steps.parser.js';

describe('parseScore', () => {
  it('reads the final integer score tag', () => {
    expect(parseScore('The summary is fluent.\n<score>4</score>')).toBe(4);
    expect(parseScore('<score> 5 </score>\n\n')).toBe(5);
    expect(parseScore('reasoning <SCORE>1</SCORE>')).toBe(1);
  });

  it.each([
    ['no tag', 'I would give it a 4.'],
    ['off the scale', '<score>6</score>'],
    ['zero', '<score>0</score>'],
    ['decimal when integers were asked', '<score>3.5</score>'],
    ['words', '<score>four</score>'],
    ['empty', '<score></score>'],
    ['text after the tag', '<score>4</score> Hope this helps!'],
    ['two tags', 'e.g. <score>3</score> ... final <score>4</score>'],
    ['a range', '<score>3-4</score>'],
  ])('rejects %s', (_, output) => {
    expect(() => parseScore(output, { templateId: 'opinion.judge.op-i' })).toThrow(OutputParseError);
  });

  it('accepts decimals only when asked to', () => {
    expect(parseScore('<score>3.5</score>', { allowDecimal: true })).toBe(3.5);
    expect(() => parseScore('<score>5.5</score>', { allowDecimal: true })).toThrow(/outside 1-5/);
  });

  it('names the template in the error', () => {
    expect(() => parseScore('nothing', { templateId: 'opinion.judge.op.fluency' })).toThrow(
      /^opinion\.judge\.op\.fluency: no <score>/,
    );
  });
});

describe('parseEvaluationSteps', () => {
  it('reads numbered steps, skipping a heading and joining continuation lines', () => {
    const steps = parseEvaluationSteps(
      'Evaluation steps:\n1. Read the reviews.\n2) List the main aspects\n   mentioned by several reviewers.\n\n**3.** Compare with the summary.',
    );
    expect(steps).toEqual([
      'Read the reviews.',
      'List the main aspects mentioned by several reviewers.',
      'Compare with the summary.',
    ]);
  });

  it('rejects replies without steps, with gaps, or with empty steps', () => {
    expect(() => parseEvaluationSteps('Just read it carefully.')).toThrow(/no numbered evaluation steps/);
    expect(() => parseEvaluationSteps('1. Read.\n3. Score.')).toThrow(/numbered 3 where 2/);
    expect(() => parseEvaluationSteps('1. Read.\n2.')).toThrow(/step 2 has no text/);
    expect(() => parseEvaluationSteps('')).toThrow(OutputParseError);
  });
});
