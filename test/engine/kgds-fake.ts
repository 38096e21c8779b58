// Scripted KGDS replies for the fake server, by what the prompt asks. Writers: `writer` answers
// well; `writer-flaky` sends broken JSON the first time it sees a prompt; `writer-strings` gives
// indices as strings; `writer-refuses` refuses. The judge says yes to odd-numbered items (after
// miscounting the first time it sees a fact list), classifies every missed opinion as IRU and
// always prefers answer A.
import type { FakeReplyContext, FakeRule } from '@precis/testing';

const seen = new Map<string, number>();
const firstTime = (ctx: FakeReplyContext) => {
  const key = `${ctx.model}\n${ctx.messages.map((m) => m.content).join('\n')}`;
  const n = seen.get(key) ?? 0;
  seen.set(key, n + 1);
  return n === 0;
};

const indices = (prompt: string) => [...prompt.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
const count = (prompt: string) => Number(prompt.match(/numbered 1 to (\d+)/)?.[1] ?? 0);
const lines = (n: number, answer: (k: number) => string) =>
  Array.from({ length: n }, (_, i) => `${i + 1}. ${answer(i + 1)}`).join('\n');

function summary(ctx: FakeReplyContext): string {
  const prompt = ctx.messages.find((m) => m.role === 'user')!.content;
  const reflecting = ctx.messages.length > 2;
  const ebs = prompt.includes('background_paragraphs');
  if (ctx.model === 'writer-refuses') return "I'm sorry, but I can't help with that.";
  if (ctx.model === 'writer-flaky' && firstTime(ctx)) return '{"background_paragraphs": [1, 2';
  const [first, second] = indices(prompt);
  // A reflection keeps only the first paragraph.
  const picked = reflecting ? [first] : [first, second];
  const background = ebs
    ? { background_paragraphs: ctx.model === 'writer-strings' ? picked.map(String) : [...picked, 999] }
    : {
        background_summary: prompt
          .split('\n')
          .find((l) => l.startsWith(`[${first}] `))!
          .slice(`[${first}] `.length),
      };
  return JSON.stringify({
    ...background,
    opinion_summary: 'Person1 is unhappy with the team. Person2 disagrees.',
  });
}

export const KGDS_WRITERS = ['writer', 'writer-flaky', 'writer-strings', 'writer-refuses'];

export const kgdsRules: FakeRule[] = [
  // The preflight's one cheap request (a gateway makes it before creating a run).
  { match: /^user: ping$/, reply: 'pong' },
  { model: /^writer/, reply: summary },
  {
    match: /^user: Background summary:/m,
    reply: (ctx) => {
      const n = count(ctx.lastUser);
      return lines(firstTime(ctx) ? n - 1 : n, (k) => (k % 2 ? 'yes' : 'no'));
    },
  },
  {
    match: /^user: Opinion summary:/m,
    reply: (ctx) => lines(count(ctx.lastUser), (k) => (k % 2 ? 'yes' : 'no')),
  },
  { match: /does not convey these opinions/, reply: (ctx) => lines(count(ctx.lastUser), () => 'IRU') },
  { match: /Answer A: paragraphs/, reply: '{"better": "A"}' },
];
