import { describe, expect, it } from '@jest/globals';
import { createRng, randomInt } from '../stats/rng.js';
import { RougeScorer, rougeLScore, rougeLsumScore, rougeNScore } from './rouge.js';
import { rougeTokenize } from './tokenize.js';

describe('rougeTokenize', () => {
  it('lower-cases, splits on non-alphanumerics and drops non-ASCII letters', () => {
    expect(rougeTokenize("Hello, World! It's 2024—naïve café")).toEqual([
      'hello',
      'world',
      'it',
      's',
      '2024',
      'na',
      've',
      'caf',
    ]);
    expect(rougeTokenize('  \n\t ')).toEqual([]);
  });

  it('stems only tokens longer than 3 characters', () => {
    expect(rougeTokenize('The cats were running; she has many dogs', { stem: true })).toEqual([
      'the',
      'cat',
      'were',
      'run',
      'she',
      'has',
      'mani',
      'dog',
    ]);
    // 'ties' would become 'tie', 'sky'/'its' are short and untouched.
    expect(rougeTokenize('its ties sky', { stem: true })).toEqual(['its', 'tie', 'sky']);
  });
});

describe('ROUGE scores', () => {
  const target = 'The quick brown fox jumps over the lazy dog';
  const prediction = 'The quick brown dog jumps on the log.';

  it('rouge-score README example', () => {
    const scorer = new RougeScorer({ types: ['rouge1', 'rouge2', 'rougeL'] });
    const s = scorer.score(target, prediction);
    // Unigrams: the x2, quick, brown, dog, jumps overlap = 6 of 8 predicted, 9 target.
    expect(s.rouge1!.precision).toBeCloseTo(6 / 8, 14);
    expect(s.rouge1!.recall).toBeCloseTo(6 / 9, 14);
    expect(s.rouge1!.fmeasure).toBeCloseTo(12 / 17, 14);
    // Bigrams: "the quick", "quick brown" of 7 predicted, 8 target.
    expect(s.rouge2!.precision).toBeCloseTo(2 / 7, 14);
    expect(s.rouge2!.recall).toBeCloseTo(2 / 8, 14);
    expect(s.rouge2!.fmeasure).toBeCloseTo(4 / 15, 14);
    // LCS "the quick brown jumps the" = 5.
    expect(s.rougeL!.precision).toBeCloseTo(5 / 8, 14);
    expect(s.rougeL!.recall).toBeCloseTo(5 / 9, 14);
    expect(s.rougeL!.fmeasure).toBeCloseTo(10 / 17, 14);
  });

  it('stemming changes matches', () => {
    const plain = new RougeScorer({ types: ['rouge1'] }).score('The cats were running', 'A cat runs');
    const stemmed = new RougeScorer({ types: ['rouge1'], useStemmer: true }).score(
      'The cats were running',
      'A cat runs',
    );
    expect(plain.rouge1!.fmeasure).toBe(0);
    // cat and run match: P = 2/3, R = 2/4.
    expect(stemmed.rouge1!.precision).toBeCloseTo(2 / 3, 14);
    expect(stemmed.rouge1!.recall).toBeCloseTo(2 / 4, 14);
  });

  it('clips repeated n-grams to the smaller count', () => {
    const s = rougeNScore(['the', 'the', 'cat'], ['the', 'the', 'the', 'the'], 1);
    expect(s.precision).toBeCloseTo(2 / 4, 14);
    expect(s.recall).toBeCloseTo(2 / 3, 14);
  });

  it('empty inputs score 0, not NaN', () => {
    expect(rougeNScore([], ['a'], 1)).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(rougeNScore(['a'], ['a'], 2)).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(rougeLScore([], [])).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
    expect(new RougeScorer({ types: ['rougeLsum'] }).score('', 'a b').rougeLsum!.fmeasure).toBe(0);
  });

  it('ROUGE-Lsum: union LCS over newline-separated sentences (rouge-score test case)', () => {
    const scorer = new RougeScorer({ types: ['rougeLsum', 'rougeL'] });
    const s = scorer.score('w1 w2 w3 w4 w5', 'w1 w2 w6 w7 w8\nw1 w3 w8 w9 w5');
    // LCS with sentence 1: w1 w2; with sentence 2: w1 w3 w5; union = w1 w2 w3 w5 -> 4 hits.
    expect(s.rougeLsum!.recall).toBeCloseTo(0.8, 14);
    expect(s.rougeLsum!.precision).toBeCloseTo(0.4, 14);
    expect(s.rougeLsum!.fmeasure).toBeCloseTo(0.16 / 0.3, 14);
    // Plain ROUGE-L sees one flat sequence of 10 tokens: LCS w1 w2 w3 w5, precision 4/10.
    expect(s.rougeL!.recall).toBeCloseTo(0.8, 14);
    expect(s.rougeL!.precision).toBeCloseTo(0.4, 14);
  });

  it('ROUGE-Lsum rewards sentences in a different order, ROUGE-L does not', () => {
    const scorer = new RougeScorer({ types: ['rougeLsum', 'rougeL'] });
    const s = scorer.score('a b\nc d', 'c d\na b');
    expect(s.rougeLsum!.fmeasure).toBeCloseTo(1, 14);
    expect(s.rougeL!.fmeasure).toBeCloseTo(0.5, 14);
  });

  it('ROUGE-L agrees with a plain string LCS on random sequences', () => {
    const naiveLcs = (a: string[], b: string[]): number => {
      const t = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          t[i]![j] = a[i - 1] === b[j - 1] ? t[i - 1]![j - 1]! + 1 : Math.max(t[i - 1]![j]!, t[i]![j - 1]!);
        }
      }
      return t[a.length]![b.length]!;
    };
    const rng = createRng(9);
    const seq = () => Array.from({ length: 1 + randomInt(rng, 40) }, () => 'abcdef'[randomInt(rng, 6)]!);
    for (let k = 0; k < 50; k++) {
      const a = seq();
      const b = seq();
      expect(rougeLScore(a, b).recall).toBeCloseTo(naiveLcs(a, b) / a.length, 14);
      // A single sentence on each side: ROUGE-Lsum reduces to ROUGE-L.
      expect(rougeLsumScore([a], [b]).recall).toBeCloseTo(naiveLcs(a, b) / a.length, 14);
    }
  });

  it('ROUGE-Lsum does not count a token twice', () => {
    const s = rougeLsumScore(
      [
        ['a', 'b'],
        ['a', 'b'],
      ],
      [['a', 'b']],
    );
    expect(s.recall).toBeCloseTo(0.5, 14);
    expect(s.precision).toBeCloseTo(1, 14);
  });

  it('accepts a custom sentence splitter for ROUGE-Lsum', () => {
    const scorer = new RougeScorer({ types: ['rougeLsum'], splitSentences: (t) => t.split(/(?<=\.)\s+/) });
    const s = scorer.score('w1 w2 w3 w4 w5.', 'w1 w2 w6 w7 w8. w1 w3 w8 w9 w5.');
    expect(s.rougeLsum!.recall).toBeCloseTo(0.8, 14);
  });

  it('takes the reference with the best F-measure per type', () => {
    const scorer = new RougeScorer({ types: ['rouge1', 'rouge2'] });
    const s = scorer.scoreMulti(['completely different words here', target], prediction);
    expect(s.rouge1!.fmeasure).toBeCloseTo(12 / 17, 14);
    expect(s.rouge2!.fmeasure).toBeCloseTo(4 / 15, 14);
    expect(() => scorer.scoreMulti([], prediction)).toThrow(/at least one reference/);
  });

  it('rejects unknown types', () => {
    expect(() => new RougeScorer({ types: ['rougeX' as 'rougeL'] })).toThrow(/unknown ROUGE type "rougeX"/);
    expect(() => new RougeScorer({ types: ['rouge0' as 'rougeL'] })).toThrow(/rouge0/);
  });
});
