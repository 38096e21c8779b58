import { countTokens as countBpe, decodeTokens, encodeTokens } from '@precis/text';

// Token accounting for the fake server, with @precis/text's tokenizer (tiktoken cl100k_base), so
// usage numbers match what a real OpenAI model would report for the same text.

// Benchmarks send the same long messages many times (a judge's instructions, a summary judged in
// several batches): counts are memoized by content so the server's own CPU stays small.
const memo = new Map<string, number>();
const MEMO_LIMIT = 5_000;

export function countTokens(text: string): number {
  if (text.length < 64) return countBpe(text);
  let n = memo.get(text);
  if (n === undefined) {
    n = countBpe(text);
    if (memo.size >= MEMO_LIMIT) memo.delete(memo.keys().next().value!);
    memo.set(text, n);
  }
  return n;
}

// The reply cut into its tokens (for logprobs); joined back they give the text.
export function tokenPieces(text: string): string[] {
  return encodeTokens(text).map((t) => decodeTokens([t]));
}

// OpenAI's chat framing: 3 tokens per message plus 3 to prime the reply.
export function countChatPromptTokens(messages: { role: string; content: string }[]): number {
  let n = 3;
  for (const m of messages) n += 3 + countTokens(m.content);
  return n;
}

// The first `n` tokens of a text (a reply cut at its output budget).
export function tokenPrefix(text: string, n: number): string {
  if (n <= 0) return '';
  const ids = encodeTokens(text);
  return ids.length <= n ? text : decodeTokens(ids.slice(0, n));
}
