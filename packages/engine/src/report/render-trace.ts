import type { SummaryTaskPayload, SummaryTaskResult } from '../tasks/task-payloads.js';
import { sortSteps } from './step-order.js';

export interface TraceStep {
  taskId: string;
  status: string;
  payload: SummaryTaskPayload;
  result: SummaryTaskResult | null;
  error: string | null;
}

// A one-step strategy's task names no step: it is shown under its kind.
function stepOf(s: TraceStep): NonNullable<SummaryTaskPayload['step']> {
  return s.payload.step ?? { key: s.payload.type, role: s.payload.type };
}

// The key a trace orders a step by (a one-step strategy's: its kind).
export const traceStepKey = (s: TraceStep): string => stepOf(s).key;

function preview(text: string | undefined, width: number): string {
  if (!text) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

function words(text: string | undefined): number {
  return text ? text.trim().split(/\s+/).filter(Boolean).length : 0;
}

function line(s: TraceStep, width: number): string {
  const r = s.result;
  const flags = r
    ? `${words(r.text)}w${r.generations > 1 ? `, ${r.generations} generations` : ''}${r.cut ? ', cut' : ''}`
    : s.status;
  return `[${stepOf(s).key}] ${stepOf(s).role} (${flags}) ${r ? preview(r.text, width) : (s.error ?? '')}`;
}

// Hierarchical runs print as a tree by level (which inputs each merge took); incremental runs
// print as the sequence of initial summary, updates and compressions.
export function renderTrace(system: string, strategy: string, steps: TraceStep[], width = 100): string {
  const sorted = sortSteps(steps, traceStepKey);
  const out = [`${system} (${strategy}): ${steps.length} ${steps.length === 1 ? 'step' : 'steps'}`];
  if (strategy === 'hierarchical') {
    const levels = new Map<number, TraceStep[]>();
    for (const s of sorted) {
      const level = stepOf(s).key === 'h/clean' ? Number.POSITIVE_INFINITY : (stepOf(s).level ?? 0);
      levels.set(level, [...(levels.get(level) ?? []), s]);
    }
    for (const [level, list] of [...levels].sort((a, b) => a[0] - b[0])) {
      out.push(
        level === Number.POSITIVE_INFINITY
          ? '  artifact removal'
          : `  level ${level}${level === 0 ? ' (chunk summaries)' : ''}`,
      );
      let consumed = 0;
      for (const s of list) {
        const n = stepOf(s).input?.summaries?.length;
        const from = n
          ? ` <- level ${level - 1} #${consumed}..#${consumed + n - 1}${stepOf(s).input?.context ? ' + prior context' : ''}`
          : '';
        if (n) consumed += n;
        out.push(`    ${line(s, width)}${from}`);
      }
    }
  } else {
    for (const s of sorted) out.push(`  ${line(s, width)}`);
  }
  return `${out.join('\n')}\n`;
}
