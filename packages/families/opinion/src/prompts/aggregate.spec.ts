import { describe, expect, it } from '@jest/globals';
import { OutputParseError } from '@precis/prompts';
import { aggregateScoreSamples } from './aggregate.js';
import { logprobWeightedScore, scoreTokenTopLogprobs } from './logprob-score.js';

describe('aggregateScoreSamples', () => {
  it('averages the parsed samples and counts the failures', () => {
    const outputs = [
      'ok <score>4</score>',
      'ok <score>5</score>',
      'no score here',
      'ok <score>4</score>',
      '<score>9</score>',
      'ok <score>2</score>',
    ];
    const agg = aggregateScoreSamples(outputs);
    expect(agg.n).toBe(6);
    expect(agg.parsed).toEqual([4, 5, 4, 2]);
    expect(agg.unparsed).toBe(2);
    expect(agg.score).toBeCloseTo(15 / 4, 12);
    expect(agg.distribution).toEqual({ '2': 1, '4': 2, '5': 1 });
    expect(agg.errors).toHaveLength(2);
    expect(agg.errors[1]).toMatch(/outside 1-5/);
  });

  it('gives a null score, not a default, when nothing parses', () => {
    const agg = aggregateScoreSamples(['four', 'five']);
    expect(agg.score).toBeNull();
    expect(agg.unparsed).toBe(2);
    expect(agg.distribution).toEqual({});
  });

  it('lets errors other than parse errors through', () => {
    expect(() =>
      aggregateScoreSamples(['x'], () => {
        throw new TypeError('bug');
      }),
    ).toThrow(TypeError);
  });
});

describe('logprobWeightedScore', () => {
  it('weights the scores by their renormalised probabilities', () => {
    const r = logprobWeightedScore([
      { token: '4', logprob: Math.log(0.5) },
      { token: '5', logprob: Math.log(0.2) },
      { token: ' 4', logprob: Math.log(0.1) },
      { token: 'four', logprob: Math.log(0.1) },
      { token: '3', logprob: Math.log(0.1) },
    ]);
    expect(r.validMass).toBeCloseTo(0.9, 12);
    expect(r.probabilities['4']).toBeCloseTo(0.6 / 0.9, 12);
    expect(r.score).toBeCloseTo((0.6 * 4 + 0.2 * 5 + 0.1 * 3) / 0.9, 12);
  });

  it('fails explicitly when no score token is among the alternatives', () => {
    expect(() => logprobWeightedScore([{ token: 'The', logprob: -0.1 }])).toThrow(OutputParseError);
    expect(() => logprobWeightedScore([])).toThrow(/none of the score tokens/);
  });

  it('finds the alternatives at the score position, also when a token carries the tag end', () => {
    const tokens = [
      { token: 'Good.', top: [] },
      { token: ' <score', top: [] },
      {
        token: '>4',
        top: [
          { token: '>4', logprob: Math.log(0.7) },
          { token: '>3', logprob: Math.log(0.3) },
          { token: 'x', logprob: Math.log(0.01) },
        ],
      },
      { token: '</score>', top: [] },
    ];
    const top = scoreTokenTopLogprobs(tokens);
    expect(top.map((t) => t.token)).toEqual(['4', '3']);
    expect(logprobWeightedScore(top).score).toBeCloseTo(3.7, 12);
    const plain = [
      { token: '<score>', top: [] },
      { token: '2', top: [{ token: '2', logprob: 0 }] },
    ];
    expect(scoreTokenTopLogprobs(plain)).toEqual([{ token: '2', logprob: 0 }]);
    expect(() => scoreTokenTopLogprobs([{ token: 'no tag', top: [] }])).toThrow(OutputParseError);
  });
});
