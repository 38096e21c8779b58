import { countTokens as countBpe, decodeTokens, encodeTokens } from '@precis/text';

// Token accounting for the fake server, with @precis/text's tokenizer (tiktoken cl100k_base), so
// usage numbers match what a real OpenAI model would report for the same text.

export function countTokens(text: string): number {
  return countBpe(text);
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
