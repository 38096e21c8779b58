// Scripted PerSphere replies for the fake server, by what the prompt asks. Writers: `sphere`
// answers well (claim 1 cites the first half of its documents, claim 2 the rest; the editor
// keeps the agents' perspectives); `sphere-flaky` answers with three claims the first time it
// sees a prompt; `sphere-refuses` refuses. The judge rates 7, extracts a document's first words,
// says every extracted perspective entails (yes), every perspective supports claim 1 and every
// document is a reference.
import type { FakeReplyContext, FakeRule } from '@precis/testing';

const seen = new Set<string>();
const firstTime = (ctx: FakeReplyContext) => {
  const key = `${ctx.model}\n${ctx.messages.map((m) => m.content).join('\n')}`;
  const fresh = !seen.has(key);
  seen.add(key);
  return fresh;
};

const claim = (n: number, ids: string[]) =>
  `  <claim id="${n}">\n    <statement>Claim ${n}.</statement>\n${ids
    .map((id) => `    <perspective refs="${id}">Document ${id} argues claim ${n}.</perspective>`)
    .join('\n')}\n  </claim>`;

function summary(ctx: FakeReplyContext): string {
  const prompt = ctx.lastUser;
  if (ctx.model === 'sphere-refuses') return "I'm sorry, but I can't help with that.";
  const editor = prompt.includes('## Summaries from the agents');
  // The editor cites what the agents cite (their summaries sit between these two headings).
  const agents = prompt.split('## Summaries from the agents')[1]?.split('## Task')[0] ?? '';
  const ids = editor
    ? [...new Set([...agents.matchAll(/refs="([^"]+)"/g)].flatMap((m) => m[1]!.split(/[,\s]+/)))]
    : [...prompt.matchAll(/^\[([^\]]+)\] /gm)].map((m) => m[1]!);
  const half = Math.max(1, Math.floor(ids.length / 2));
  const claims = [claim(1, ids.slice(0, half)), claim(2, ids.length > 1 ? ids.slice(half) : ids)];
  if (ctx.model === 'sphere-flaky' && firstTime(ctx)) claims.push(claim(3, ids.slice(0, 1)));
  return `Here is the summary.\n<summary>\n${claims.join('\n')}\n</summary>`;
}

export const PERSPHERE_WRITERS = ['sphere', 'sphere-flaky', 'sphere-refuses'];

export const persphereRules: FakeRule[] = [
  {
    model: /^sphere/,
    match: /^user: (## Query|You are one of several agents|You are the editor)/m,
    reply: summary,
  },
  { match: /Rating: \[\[n\]\]/, reply: 'Covers most golden perspectives.\nRating: [[7]]' },
  {
    match: /Perspective: <one sentence>/,
    reply: (ctx) =>
      `Perspective: ${ctx.lastUser.split('Document:\n')[1]!.split(/\s+/).slice(0, 8).join(' ')}`,
  },
  { match: /Does the premise entail the hypothesis/, reply: 'Same point.\nAnswer: yes' },
  {
    match: /Which of the two claims does the perspective support/,
    reply: 'It argues for the first.\nAnswer: 1',
  },
  { match: /Is the document a reference for the perspective/, reply: 'It does.\nAnswer: yes' },
];
