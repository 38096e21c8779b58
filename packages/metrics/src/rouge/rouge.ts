import { rougeTokenize } from './tokenize.js';

// ROUGE as computed by Google's rouge-score package (rouge_scorer.RougeScorer).

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

export type RougeType = `rouge${number}` | 'rougeL' | 'rougeLsum';

const ZERO: RougeScore = { precision: 0, recall: 0, fmeasure: 0 };

function fmeasure(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

function ngramCounts(tokens: readonly string[], n: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i + n <= tokens.length; i++) {
    // NUL cannot occur in tokens, so the joined key is unambiguous.
    const key = tokens.slice(i, i + n).join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

// ROUGE-N: clipped n-gram overlap (min of the counts); empty sides give 0, not NaN.
export function rougeNScore(target: readonly string[], prediction: readonly string[], n: number): RougeScore {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`ROUGE-N needs a positive integer n, got ${n}`);
  const t = ngramCounts(target, n);
  const p = ngramCounts(prediction, n);
  let overlap = 0;
  let targetTotal = 0;
  let predictionTotal = 0;
  for (const [gram, count] of t) {
    overlap += Math.min(count, p.get(gram) ?? 0);
    targetTotal += count;
  }
  for (const count of p.values()) predictionTotal += count;
  const precision = overlap / Math.max(predictionTotal, 1);
  const recall = overlap / Math.max(targetTotal, 1);
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

// Tokens become small integers so the O(mn) LCS tables compare numbers, not strings.
function intern(sequences: readonly (readonly string[])[]): Int32Array[] {
  const ids = new Map<string, number>();
  return sequences.map((seq) => {
    const out = new Int32Array(seq.length);
    for (let i = 0; i < seq.length; i++) {
      let id = ids.get(seq[i]!);
      if (id === undefined) {
        id = ids.size;
        ids.set(seq[i]!, id);
      }
      out[i] = id;
    }
    return out;
  });
}

function lcsLength(a: Int32Array, b: Int32Array): number {
  let prev = new Int32Array(b.length + 1);
  let curr = new Int32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    const ai = a[i - 1]!;
    for (let j = 1; j <= b.length; j++) {
      curr[j] = ai === b[j - 1] ? prev[j - 1]! + 1 : Math.max(prev[j]!, curr[j - 1]!);
    }
    [prev, curr] = [curr, prev];
  }
  return prev[b.length]!;
}

export function rougeLScore(target: readonly string[], prediction: readonly string[]): RougeScore {
  if (target.length === 0 || prediction.length === 0) return { ...ZERO };
  const [t, p] = intern([target, prediction]);
  const lcs = lcsLength(t!, p!);
  const precision = lcs / prediction.length;
  const recall = lcs / target.length;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

// Indices into `ref` of one LCS with `can`, backtracking like rouge-score (prefers moving in
// `ref` on ties), so the union-LCS matches its output. `table` is a reusable scratch buffer.
function lcsIndices(ref: Int32Array, can: Int32Array, table: Int32Array): number[] {
  const cols = can.length + 1;
  table.fill(0, 0, (ref.length + 1) * cols);
  for (let i = 1; i <= ref.length; i++) {
    const ri = ref[i - 1]!;
    for (let j = 1; j <= can.length; j++) {
      table[i * cols + j] =
        ri === can[j - 1]
          ? table[(i - 1) * cols + j - 1]! + 1
          : Math.max(table[(i - 1) * cols + j]!, table[i * cols + j - 1]!);
    }
  }
  const out: number[] = [];
  let i = ref.length;
  let j = can.length;
  while (i > 0 && j > 0) {
    if (ref[i - 1] === can[j - 1]) {
      out.push(i - 1);
      i--;
      j--;
    } else if (table[i * cols + j - 1]! > table[(i - 1) * cols + j]!) j--;
    else i--;
  }
  return out.reverse();
}

function countTokens(sentences: readonly (readonly string[])[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of sentences) for (const t of s) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

// ROUGE-Lsum: summary-level LCS; for each reference sentence, the union of its LCS with every
// candidate sentence, with token counts capping hits so nothing is counted twice.
export function rougeLsumScore(
  targetSentences: readonly (readonly string[])[],
  predictionSentences: readonly (readonly string[])[],
): RougeScore {
  if (targetSentences.length === 0 || predictionSentences.length === 0) return { ...ZERO };
  const m = targetSentences.reduce((s, x) => s + x.length, 0);
  const n = predictionSentences.reduce((s, x) => s + x.length, 0);
  if (m === 0 || n === 0) return { ...ZERO };
  const refCounts = countTokens(targetSentences);
  const canCounts = countTokens(predictionSentences);
  const ids = intern([...targetSentences, ...predictionSentences]);
  const refIds = ids.slice(0, targetSentences.length);
  const canIds = ids.slice(targetSentences.length);
  const longestRef = Math.max(...refIds.map((r) => r.length));
  const longestCan = Math.max(...canIds.map((c) => c.length));
  const table = new Int32Array((longestRef + 1) * (longestCan + 1));
  let hits = 0;
  targetSentences.forEach((ref, r) => {
    const union = new Set<number>();
    for (const can of canIds) for (const idx of lcsIndices(refIds[r]!, can, table)) union.add(idx);
    for (const idx of [...union].sort((a, b) => a - b)) {
      const token = ref[idx]!;
      const c = canCounts.get(token) ?? 0;
      const rc = refCounts.get(token) ?? 0;
      if (c > 0 && rc > 0) {
        hits++;
        canCounts.set(token, c - 1);
        refCounts.set(token, rc - 1);
      }
    }
  });
  const precision = hits / n;
  const recall = hits / m;
  return { precision, recall, fmeasure: fmeasure(precision, recall) };
}

export interface RougeScorerOptions {
  types: readonly RougeType[];
  useStemmer?: boolean;
  // Sentence splitter for rougeLsum; default: split on '\n' (rouge-score without split_summaries).
  splitSentences?: (text: string) => string[];
}

const ROUGE_N = /^rouge([1-9][0-9]*)$/;

function splitOnNewlines(text: string): string[] {
  return text.split('\n');
}

export class RougeScorer {
  private readonly types: readonly RougeType[];
  private readonly useStemmer: boolean;
  private readonly splitSentences: (text: string) => string[];
  private readonly stemCache = new Map<string, string>();

  constructor(options: RougeScorerOptions) {
    if (options.types.length === 0) throw new RangeError('RougeScorer needs at least one ROUGE type');
    for (const type of options.types) {
      if (type !== 'rougeL' && type !== 'rougeLsum' && !ROUGE_N.test(type)) {
        throw new RangeError(`unknown ROUGE type "${type}"; use rouge1, rouge2, ..., rougeL or rougeLsum`);
      }
    }
    this.types = [...options.types];
    this.useStemmer = options.useStemmer ?? false;
    this.splitSentences = options.splitSentences ?? splitOnNewlines;
  }

  tokenize(text: string): string[] {
    return rougeTokenize(text, { stem: this.useStemmer, stemCache: this.stemCache });
  }

  // Scores keyed by ROUGE type; the first argument is the reference, as in rouge-score.
  score(target: string, prediction: string): Record<string, RougeScore> {
    const needsTokens = this.types.some((t) => t !== 'rougeLsum');
    const targetTokens = needsTokens ? this.tokenize(target) : [];
    const predictionTokens = needsTokens ? this.tokenize(prediction) : [];
    const out: Record<string, RougeScore> = {};
    for (const type of this.types) {
      if (type === 'rougeL') out[type] = rougeLScore(targetTokens, predictionTokens);
      else if (type === 'rougeLsum') {
        out[type] = rougeLsumScore(this.sentenceTokens(target), this.sentenceTokens(prediction));
      } else out[type] = rougeNScore(targetTokens, predictionTokens, Number(ROUGE_N.exec(type)![1]));
    }
    return out;
  }

  // Multiple references: per type, the reference with the highest F-measure (first on ties).
  scoreMulti(targets: readonly string[], prediction: string): Record<string, RougeScore> {
    if (targets.length === 0) throw new RangeError('scoreMulti needs at least one reference');
    const all = targets.map((t) => this.score(t, prediction));
    const out: Record<string, RougeScore> = {};
    for (const type of this.types) {
      let best = all[0]![type]!;
      for (const s of all) if (s[type]!.fmeasure > best.fmeasure) best = s[type]!;
      out[type] = best;
    }
    return out;
  }

  private sentenceTokens(text: string): string[][] {
    return this.splitSentences(text)
      .filter((s) => s.length > 0)
      .map((s) => this.tokenize(s));
  }
}
