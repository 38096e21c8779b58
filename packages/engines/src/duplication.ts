import { ngramKeys, splitSentences, words } from '@precis/text';
import type { CoherenceAnnotator, CoherenceVerdict } from './roles.js';
import { contentTerms } from './terms.js';

export const DUPLICATION_ENGINE = 'heuristic-duplication@1';

export interface DuplicationOptions {
  // Content-word-set Jaccard similarity at or above which a sentence repeats an earlier one.
  jaccard?: number;
  // Share of a sentence's content words already in one earlier sentence at or above which it
  // repeats that sentence.
  containment?: number;
  // Sentences with fewer distinct content words are only checked for repeated spans.
  minContentWords?: number;
  // A run of this many words that already appeared in an earlier sentence is a repeat.
  spanWords?: number;
}

const DEFAULTS: Required<DuplicationOptions> = {
  jaccard: 0.7,
  containment: 0.9,
  minContentWords: 5,
  spanWords: 8,
};

export interface DuplicationVerdict extends CoherenceVerdict {
  // 1-based number of the earlier sentence this one repeats.
  duplicateOf?: number;
}

function quote(text: string, maxWords = 12): string {
  const w = text.split(/\s+/).filter(Boolean);
  return w.length > maxWords ? `${w.slice(0, maxWords).join(' ')} ...` : w.join(' ');
}

// Offline BooookScore annotator for the one confusion type detectable without a judge:
// duplication (METHODS.md §1.6). A later sentence that restates an earlier one (near-identical
// content words) or copies a long word span from it is confusing; the first occurrence is not.
// Other confusion types are never reported, so this is an upper bound on coherence.
export function annotateDuplication(
  sentences: readonly string[],
  options: DuplicationOptions = {},
): DuplicationVerdict[] {
  const opts = { ...DEFAULTS, ...options };
  const sets = sentences.map((s) => new Set(contentTerms(s)));
  const firstSpan = new Map<string, number>();
  return sentences.map((sentence, i) => {
    const spans = ngramKeys(words(sentence), opts.spanWords);
    let verdict: DuplicationVerdict = { confusing: false, types: [], questions: [] };
    const a = sets[i]!;
    if (a.size >= opts.minContentWords) {
      for (let j = 0; j < i; j++) {
        const b = sets[j]!;
        if (b.size === 0) continue;
        let shared = 0;
        for (const t of a) if (b.has(t)) shared++;
        const jaccard = shared / (a.size + b.size - shared);
        if (jaccard >= opts.jaccard || shared / a.size >= opts.containment) {
          verdict = {
            confusing: true,
            types: ['duplication'],
            questions: [`Why does this sentence repeat sentence ${j + 1} ("${quote(sentences[j]!)}")?`],
            duplicateOf: j + 1,
          };
          break;
        }
      }
    }
    if (!verdict.confusing) {
      const repeated = spans.find((k) => firstSpan.has(k));
      if (repeated !== undefined) {
        const j = firstSpan.get(repeated)!;
        verdict = {
          confusing: true,
          types: ['duplication'],
          questions: [`Why is "${repeated} ..." repeated from sentence ${j + 1}?`],
          duplicateOf: j + 1,
        };
      }
    }
    for (const k of spans) if (!firstSpan.has(k)) firstSpan.set(k, i);
    return verdict;
  });
}

export class HeuristicDuplicationAnnotator implements CoherenceAnnotator {
  readonly engine = DUPLICATION_ENGINE;

  constructor(private readonly options: DuplicationOptions = {}) {}

  async annotate(input: { summary: string; sentences?: readonly string[] }) {
    const sentences = input.sentences ?? splitSentences(input.summary);
    return { verdicts: annotateDuplication(sentences, this.options), engine: this.engine };
  }
}
