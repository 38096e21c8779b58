import type { LedgerCallView } from '../queries/ledger-call-view.js';

const INDENT = '      ';
const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `${INDENT}${l}` : ''))
    .join('\n');

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

// The cache line of a call: a hit names the call whose answer it replayed.
function cacheLine(c: LedgerCallView): string | null {
  if (!c.cacheHit) return null;
  if (c.cachedFrom.length === 0) return 'cache hit (the call that filled the entry is no longer stored)';
  const from = c.cachedFrom.map(
    (f) => `call ${f.id} (run ${f.runId ?? '-'}, task ${f.taskId ?? '-'}, ${f.createdAt})`,
  );
  return `cache hit${c.calls > 1 ? ` of ${c.calls} samples` : ''}: replays ${from.join('; ')}`;
}

function head(c: LedgerCallView, n: number): string[] {
  const cost = `$${c.costUsd.toFixed(6)}${c.cacheHit ? ` (list $${c.listCostUsd.toFixed(6)})` : ''}`;
  const cache = cacheLine(c);
  return [
    `#${n} ${c.system} ${c.stage} ${c.taskId}`,
    `    ${c.kind} ${c.model} (${c.modelId}): ${c.status}, ${plural(c.attempts, 'attempt')}, ${c.latencyMs} ms, ${cost}, ${c.createdAt}`,
    `    tokens: ${c.tokensIn} in (${c.tokensCached} cached), ${c.tokensOut} out (${c.tokensReasoning} reasoning)`,
    ...(c.templateVersion !== null ? [`    template version: ${c.templateVersion}`] : []),
    ...(cache ? [`    ${cache}`] : []),
    ...c.notes.map((note) => `    note: ${note}`),
    ...(c.error ? [`    error: ${c.error}`] : []),
    `    params: ${JSON.stringify(c.params)}`,
  ];
}

// Every text of a call in full (a transcript is read for its texts): the prompt, then each
// reply's reasoning and answer.
function texts(c: LedgerCallView): string[] {
  const out = c.messages.map((m) => `    [${m.role}]\n${indent(m.content)}`);
  c.replies.forEach((r, i) => {
    const which = c.replies.length > 1 ? ` ${i + 1}` : '';
    if (r.reasoning !== null) out.push(`    [reasoning${which}]\n${indent(r.reasoning)}`);
    const finish = r.finishReason && r.finishReason !== 'stop' ? ` (finish: ${r.finishReason})` : '';
    out.push(`    [reply${which}]${finish}\n${indent(r.text)}`);
  });
  if (c.replies.length === 0 && c.kind === 'chat') out.push('    [no reply stored]');
  return out;
}

// The model calls behind a document, as `runs show --trace <document> --calls` prints them.
export function renderCalls(calls: readonly LedgerCallView[]): string {
  const blocks = calls.map((c, i) => [...head(c, i + 1), ...texts(c)].join('\n'));
  return `model calls: ${calls.length}\n\n${blocks.map((b) => `${b}\n\n`).join('')}`;
}
