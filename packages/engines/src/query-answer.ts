import { candidatePool, selectWithinBudget, sentencesOf } from './extract.js';
import { contentTerms, cosine, tfidfVectors } from './terms.js';

// The offline RAG responder of GoR (METHODS.md §5.3): the sentences of the supporting materials
// most similar to the question (TF-IDF cosine in one space; unrelated ones left out), in material
// order, within the word budget. Labelled heuristic wherever it is reported.
export const EXTRACTIVE_RESPONDER = 'query-focused-extract@1';

export function queryFocusedAnswer(
  question: string,
  materials: readonly string[],
  budgetWords: number,
): string {
  const pool = candidatePool(
    materials.flatMap((m) => sentencesOf(m)),
    3,
  );
  if (pool.length === 0) return '';
  const vectors = tfidfVectors([contentTerms(question), ...pool.map((s) => contentTerms(s.text))]);
  const q = vectors[0]!;
  const scores = vectors.slice(1).map((v) => cosine(q, v));
  const ranked = [...scores.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b);
  // Sentences sharing no term with the question only answer when none does.
  const related = ranked.filter((i) => scores[i]! > 0);
  const priority = related.length > 0 ? related : ranked;
  return selectWithinBudget(pool, priority, vectors.slice(1), { budgetWords });
}
