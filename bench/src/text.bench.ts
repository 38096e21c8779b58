import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import {
  chunkBySentences,
  chunkByTokens,
  countTokens,
  getEncoder,
  novelNgramShare,
  repeatedNgramShare,
  splitSentenceSpans,
} from '@precis/text';

// Text utilities on a real book (default: Pride and Prejudice, ~160k tokens). Every measured
// step runs a fixed number of times and reports the median (novel trigrams: the first call
// builds the book's trigram set, later calls with the same book reuse it). Args: --book <path> --reps <n>.

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function arg(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
}

function median<T>(reps: number, fn: () => T): { ms: number; value: T } {
  const times: number[] = [];
  let value!: T;
  for (let r = 0; r < reps; r++) {
    const t = performance.now();
    value = fn();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { ms: Math.round(times[Math.floor(reps / 2)]! * 10) / 10, value };
}

export async function run(args: string[]) {
  const path = arg(args, 'book') ?? resolve(repoRoot, '../shared/datasets/books/pride-and-prejudice.txt');
  const reps = Math.min(Math.max(Number(arg(args, 'reps') ?? 3), 1), 20);
  const book = readFileSync(path, 'utf8');

  const initCl = median(1, () => getEncoder('cl100k_base'));
  const initO2 = median(1, () => getEncoder('o200k_base'));
  const count = median(reps, () => countTokens(book, 'cl100k_base'));
  const countO2 = median(reps, () => countTokens(book, 'o200k_base'));
  const split = median(reps, () => splitSentenceSpans(book).length);
  const chunks = median(reps, () => chunkBySentences(book, { maxTokens: 2048 }));
  const windows = median(reps, () => chunkByTokens(book, { size: 256, overlap: 32 }).length);
  const summary = chunks.value
    .slice(0, 40)
    .map((c) => c.text.slice(0, 400))
    .join(' ');
  const novelFirst = median(1, () => novelNgramShare(summary, book, 3));
  const novel = median(reps, () => novelNgramShare(summary, book, 3));
  const repeated = median(reps, () => repeatedNgramShare(book, 3));

  return {
    name: 'text',
    description: `@precis/text on ${path.split('/').pop()} (${book.length} chars), median of ${reps}`,
    metrics: {
      encoder_init_cl100k_ms: initCl.ms,
      encoder_init_o200k_ms: initO2.ms,
      tokens_cl100k: count.value,
      count_tokens_cl100k_ms: count.ms,
      tokens_per_s_cl100k: Math.round(count.value / (count.ms / 1000)),
      count_tokens_o200k_ms: countO2.ms,
      sentences: split.value,
      split_sentences_ms: split.ms,
      chunks_2048: chunks.value.length,
      max_chunk_tokens: Math.max(...chunks.value.map((c) => c.tokenCount)),
      chunk_by_sentences_2048_ms: chunks.ms,
      token_windows_256_32: windows.value,
      chunk_by_tokens_256_32_ms: windows.ms,
      novel_trigrams_vs_book_first_ms: novelFirst.ms,
      novel_trigrams_vs_book_cached_ms: novel.ms,
      repeated_trigrams_book_ms: repeated.ms,
      repeated_trigram_share_book: Math.round(repeated.value * 10000) / 10000,
    },
  };
}
