// What a leaderboard row needed and what of it failed. A failed or dead task counts here like an
// explicit failure: a missing summary or judgment is never just left out.
export interface RowWork {
  // Documents the system should have summarized; summaries failed = no summary (failed or dead
  // summarize steps) or an empty one.
  summaries: { expected: number; failed: number };
  // Judgments the metric needed for the summaries that exist: failed = failed verdicts plus
  // judgments never written (failed or dead judge tasks).
  judgments: { expected: number; failed: number };
}

export const isComplete = (w: RowWork): boolean => w.summaries.failed === 0 && w.judgments.failed === 0;

const noun = (n: number, one: string, many: string) => (n === 1 ? one : many);

// 'complete', or e.g. 'incomplete: 3 of 40 summaries failed, 12 of 310 judgments failed'.
export function describeWork(w: RowWork): string {
  if (isComplete(w)) return 'complete';
  const { summaries: s, judgments: j } = w;
  const parts: string[] = [];
  if (s.failed) parts.push(`${s.failed} of ${s.expected} ${noun(s.expected, 'summary', 'summaries')} failed`);
  if (j.failed)
    parts.push(`${j.failed} of ${j.expected} ${noun(j.expected, 'judgment', 'judgments')} failed`);
  const every = (s.expected > 0 && s.failed === s.expected) || (j.expected > 0 && j.failed === j.expected);
  return `${every ? 'failed' : 'incomplete'}: ${parts.join(', ')}`;
}

// Short form for a `failed` column: '3 summaries, 12 judgments', or '0'.
export function failedCell(w: RowWork): string {
  const { summaries: s, judgments: j } = w;
  const parts: string[] = [];
  if (s.failed) parts.push(`${s.failed} ${noun(s.failed, 'summary', 'summaries')}`);
  if (j.failed) parts.push(`${j.failed} ${noun(j.failed, 'judgment', 'judgments')}`);
  return parts.length ? parts.join(', ') : '0';
}
