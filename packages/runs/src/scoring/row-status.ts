import { type BootstrapMeanResult, bootstrapMean } from '@precis/metrics';

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

// 'complete', or e.g. 'incomplete: 3 of 40 summaries failed, 12 of 310 judgments failed'.
export function describeWork(w: RowWork): string {
  if (isComplete(w)) return 'complete';
  const parts: string[] = [];
  if (w.summaries.failed) parts.push(`${w.summaries.failed} of ${w.summaries.expected} summaries failed`);
  if (w.judgments.failed) parts.push(`${w.judgments.failed} of ${w.judgments.expected} judgments failed`);
  const every =
    w.summaries.failed === w.summaries.expected ||
    (w.judgments.expected > 0 && w.judgments.failed === w.judgments.expected);
  return `${every ? 'failed' : 'incomplete'}: ${parts.join(', ')}`;
}

// Short form for a `failed` column: '3 summaries, 12 judgments', or '0'.
export function failedCell(w: RowWork): string {
  const parts: string[] = [];
  if (w.summaries.failed) parts.push(`${w.summaries.failed} summaries`);
  if (w.judgments.failed) parts.push(`${w.judgments.failed} judgments`);
  return parts.length ? parts.join(', ') : '0';
}

// Bootstrap of a mean over values taken in a fixed order (the run's document order): the
// resampling draws by index, so the same values in another order would give another CI.
export function bootstrapInOrder(
  values: readonly { order: number; value: number }[],
  options: { resamples: number; seed: number | string },
): BootstrapMeanResult | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a.order - b.order);
  return bootstrapMean(
    sorted.map((v) => v.value),
    options,
  );
}
