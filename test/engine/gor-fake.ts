// Scripted GoR replies for the fake server, by what the prompt asks. `gor-writer` asks about the
// chunk's first three words (so questions differ by chunk), answers with the first sentence of
// its materials and summarizes with the first sentence of each material; `gor-refuses` replies
// with nothing. The judge always prefers answer 1, so a system wins exactly half of each pair.
import type { FakeReplyContext, FakeRule } from '@precis/testing';

const firstSentence = (text: string) => `${text.trim().split(/(?<=[.?!])\s/)[0]}`;
// Material i of a GoR prompt: "[i] text" paragraphs.
const materials = (prompt: string) => [...prompt.matchAll(/^\[\d+\] (.+)$/gm)].map((m) => m[1]!);

function question(ctx: FakeReplyContext): string {
  const chunk = ctx.lastUser.split('Part of a long document:\n')[1] ?? '';
  const words = chunk
    .split(/\s+/)
    .filter((w) => /[a-z]/i.test(w))
    .slice(0, 3);
  return `Question: What is said about ${words.join(' ')}?`;
}

export const GOR_WRITERS = ['gor-writer', 'gor-refuses'];

export const gorRules: FakeRule[] = [
  { model: 'gor-refuses', match: /./, reply: '   ' },
  { model: 'gor-writer', match: /Write one question that asks for a summary/, reply: question },
  {
    model: 'gor-writer',
    match: /answer the question briefly but completely/,
    reply: (ctx) => firstSentence(materials(ctx.lastUser)[0] ?? 'Nothing.'),
  },
  {
    model: 'gor-writer',
    match: /write the summary as one or a few paragraphs/,
    reply: (ctx) => {
      const found = materials(ctx.lastUser);
      const texts = found.length ? found : [ctx.lastUser.split('\n')[1] ?? ''];
      return texts.map(firstSentence).join(' ');
    },
  },
  {
    match: /Compare the two answers on:/,
    reply: JSON.stringify({
      comprehensiveness: { winner: 1, reason: 'more detail' },
      diversity: { winner: 1, reason: 'more views' },
      empowerment: { winner: 1, reason: 'clearer' },
      overall: { winner: 1, reason: 'better' },
    }),
  },
];
