import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { annotateDuplication, createLeadEngine, createTextRankEngine } from '@precis/engines';
import { chunkBySentences, splitSentences, wordCount } from '@precis/text';

// Offline engines on a real book (default: Pride and Prejudice) chunked at 2048 tokens:
// hierarchical-style level-0 summaries of every chunk, one merge of all of them, the
// duplication annotator on the result, and TextRank over the whole book in one go.
// Args: --book <path> --budget <words per chunk summary>.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: Math.round((performance.now() - t) * 10) / 10, value };
}

export async function run(args: string[]) {
  const path = arg(args, 'book') ?? resolve(repoRoot, '../shared/datasets/books/pride-and-prejudice.txt');
  const budget = Math.min(Math.max(Number(arg(args, 'budget') ?? 150), 10), 2000);
  const book = readFileSync(path, 'utf8');
  const chunks = chunkBySentences(book, { maxTokens: 2048 }).map((c) => c.text);
  const textrank = createTextRankEngine();
  const lead = createLeadEngine();

  const level0 = await timed(async () => {
    const out: string[] = [];
    for (const text of chunks) out.push((await textrank.summarizeChunk({ text, budgetWords: budget })).text);
    return out;
  });
  const leadLevel0 = await timed(async () => {
    for (const text of chunks) await lead.summarizeChunk({ text, budgetWords: budget });
  });
  const merged = await timed(() => textrank.merge({ summaries: level0.value, budgetWords: 900 }));
  const annotated = await timed(async () => annotateDuplication(splitSentences(level0.value.join(' '))));
  const whole = await timed(() => textrank.summarizeChunk({ text: book, budgetWords: 900 }));

  return {
    name: 'engines',
    description: `textrank@1 / lead@1 / heuristic-duplication@1 on ${path.split('/').pop()} (${chunks.length} chunks of <= 2048 tokens)`,
    metrics: {
      chunks: chunks.length,
      textrank_chunk_summaries_ms: level0.ms,
      textrank_ms_per_chunk: Math.round((level0.ms / chunks.length) * 100) / 100,
      lead_chunk_summaries_ms: leadLevel0.ms,
      textrank_merge_all_ms: merged.ms,
      merged_words: wordCount(merged.value.text),
      duplication_sentences: annotated.value.length,
      duplication_flagged: annotated.value.filter((v) => v.confusing).length,
      duplication_ms: annotated.ms,
      textrank_whole_book_ms: whole.ms,
    },
  };
}
