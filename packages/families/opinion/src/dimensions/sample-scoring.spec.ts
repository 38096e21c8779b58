import { describe, expect, it } from '@jest/globals';
import { scoreJudgeSamples } from './sample-scoring.js';

const T = 'opinion.judge.op-i';

describe('scoreJudgeSamples', () => {
  it('averages the parsed samples and counts the unparsed ones', () => {
    const texts = [
      '<score>3</score>',
      'ok <score>4</score>',
      '<score>4</score>',
      'no tag',
      '<score>8</score>',
    ];
    const s = scoreJudgeSamples(
      texts.map((text) => ({ text })),
      { templateId: T, logprobs: false },
    );
    expect(s).toMatchObject({
      value: 11 / 3,
      method: 'sample-mean',
      n: 5,
      parsed: 3,
      unparsed: 2,
      distribution: { '3': 1, '4': 2 },
      failure: null,
    });
    expect(s.errors).toHaveLength(2);
    expect(s.errors[1]).toContain('outside 1-5');
  });

  it('records an explicit failure when no sample parses (never a default score)', () => {
    const s = scoreJudgeSamples([{ text: 'great' }, { text: '<score>x</score>' }], {
      templateId: T,
      logprobs: false,
    });
    expect(s.value).toBeNull();
    expect(s.parsed).toBe(0);
    expect(s.failure).toBe('none of the 2 samples had a parseable <score>');
  });

  it('weights the score tokens by their probabilities when logprobs are returned', () => {
    const logprobs = [
      { token: '<score>', top: [] },
      {
        token: '2',
        top: [
          { token: '2', logprob: Math.log(0.5) },
          { token: '3', logprob: Math.log(0.25) },
          { token: 'x', logprob: Math.log(0.2) },
          { token: ' 5', logprob: Math.log(0.25) },
        ],
      },
      { token: '</score>', top: [] },
    ];
    const s = scoreJudgeSamples([{ text: '<score>2</score>', logprobs }], { templateId: T, logprobs: true });
    expect(s.method).toBe('logprob-weighted');
    expect(s.value).toBeCloseTo(0.5 * 2 + 0.25 * 3 + 0.25 * 5, 12);
    expect(s.sampleMean).toBe(2);
    expect(s.logprob).toMatchObject({ scored: 1, failures: [] });
  });

  it('fails explicitly when logprobs were asked for but the endpoint returned none', () => {
    const s = scoreJudgeSamples([{ text: '<score>4</score>' }], { templateId: T, logprobs: true });
    expect(s.value).toBeNull();
    expect(s.sampleMean).toBe(4);
    expect(s.failure).toContain('the endpoint returned no logprobs');
  });
});
