import { performance } from 'node:perf_hooks';
import {
  bootstrapMean,
  createRng,
  kendallTauB,
  krippendorffAlpha,
  RougeScorer,
  randomInt,
  summaryLevelCorrelation,
} from '@precis/metrics';

// Throughput of the metrics on realistic sizes: book summaries (~900 words) for ROUGE, the
// SummEval-OP layout (32 products x 13 summaries) for meta-evaluation. Loops are fixed-size.

const VOCAB = [
  'the',
  'king',
  'rides',
  'north',
  'with',
  'his',
  'sons',
  'and',
  'meets',
  'a',
  'stranger',
  'who',
  'tells',
  'running',
  'stories',
  'about',
  'dragons',
  'winter',
  'coming',
  'soon',
  'castle',
  'walls',
  'were',
  'broken',
  'she',
  'decided',
  'to',
  'leave',
  'family',
  'behind',
  'betrayal',
  'revealed',
  'later',
  'in',
  'chapter',
];

function text(rng: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) {
    out.push(VOCAB[randomInt(rng, VOCAB.length)]!);
    if (i % 18 === 17) out.push('.\n');
  }
  return out.join(' ');
}

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

export async function run(
  _args: string[],
): Promise<{ name: string; description: string; metrics: Record<string, number | string> }> {
  const rng = createRng(2024);
  const pairs = Array.from({ length: 100 }, () => ({ ref: text(rng, 600), pred: text(rng, 900) }));
  const scorer = new RougeScorer({ types: ['rouge1', 'rouge2', 'rougeL', 'rougeLsum'], useStemmer: true });
  const rougeMs = time(() => {
    for (const p of pairs) scorer.score(p.ref, p.pred);
  });

  const metric = Array.from({ length: 32 }, () => Array.from({ length: 13 }, () => rng()));
  const human = Array.from({ length: 32 }, () =>
    Array.from({ length: 13 }, () => Math.round(rng() * 8) / 2 + 1),
  );
  const reps = 200;
  const summaryLevelMs = time(() => {
    for (let i = 0; i < reps; i++) summaryLevelCorrelation(metric, human, 'kendall');
  });

  const big = Array.from({ length: 2000 }, () => rng());
  const bigY = big.map((v) => v + rng() * 0.5);
  const kendallBigMs = time(() => kendallTauB(big, bigY));

  const values = Array.from({ length: 100 }, () => rng());
  const bootstrapMs = time(() => bootstrapMean(values, { resamples: 1000, seed: 1 }));

  const ratings = Array.from({ length: 3 }, () => Array.from({ length: 416 }, () => 1 + randomInt(rng, 5)));
  const alphaMs = time(() => krippendorffAlpha(ratings, 'interval'));

  return {
    name: 'metrics',
    description:
      'ROUGE-1/2/L/Lsum with stemming on 900-word vs 600-word texts; meta-evaluation and statistics',
    metrics: {
      rouge_pairs_per_s: Number(((pairs.length * 1000) / rougeMs).toFixed(1)),
      rouge_ms_per_pair: Number((rougeMs / pairs.length).toFixed(2)),
      summary_level_kendall_32x13_ms: Number((summaryLevelMs / reps).toFixed(3)),
      kendall_tau_b_n2000_ms: Number(kendallBigMs.toFixed(1)),
      bootstrap_mean_1000x100_ms: Number(bootstrapMs.toFixed(1)),
      krippendorff_interval_3x416_ms: Number(alphaMs.toFixed(2)),
    },
  };
}
