// Deterministic token accounting for the fake server.
// Estimate (documented, not a real BPE): every whitespace-separated word costs ceil(length / 4)
// tokens, i.e. it is cut into pieces of at most 4 characters; pieces after the first word carry
// their leading space, as BPE tokens do. countTokens(text) === tokenPieces(text).length always.

const WORD = /\s*\S+/g;

export function tokenPieces(text: string): string[] {
  const pieces: string[] = [];
  for (const m of text.matchAll(WORD)) {
    const raw = m[0];
    const lead = raw.length - raw.trimStart().length;
    const word = raw.slice(lead);
    for (let i = 0; i < word.length; i += 4) {
      pieces.push((i === 0 ? raw.slice(0, lead) : '') + word.slice(i, i + 4));
    }
  }
  return pieces;
}

export function countTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(WORD)) n += Math.ceil(m[0].trimStart().length / 4);
  return n;
}

// OpenAI-like chat framing: 3 tokens per message plus 3 to prime the reply.
export function countChatPromptTokens(messages: { role: string; content: string }[]): number {
  let n = 3;
  for (const m of messages) n += 3 + countTokens(m.content);
  return n;
}
