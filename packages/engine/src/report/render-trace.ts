import type { SummaryTaskPayload, SummaryTaskResult, SummaryTaskStep } from '../tasks/task-payloads.js';

export interface TraceStep {
  taskId: string;
  status: string;
  payload: SummaryTaskPayload;
  result: SummaryTaskResult | null;
  error: string | null;
}

// Where a strategy's step prints in a trace (Strategy.traceGroup): groups print in ascending
// rank, each under its heading; a step whose input holds summaries shows which outputs of the
// group `inputsFrom` it took (numbered in order within its own group).
export interface TraceGroup {
  rank: number;
  heading: string;
  inputsFrom?: string;
}

export type TraceGrouping = (step: SummaryTaskStep) => TraceGroup;

// A one-step strategy's task names no step: it is shown under its kind.
function stepOf(s: TraceStep): SummaryTaskStep {
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

// Steps under their groups' headings, each showing which earlier outputs it took.
function groupedLines(sorted: TraceStep[], grouping: TraceGrouping, width: number): string[] {
  const groups = new Map<number, { group: TraceGroup; steps: TraceStep[] }>();
  for (const s of sorted) {
    const group = grouping(stepOf(s));
    const entry = groups.get(group.rank) ?? { group, steps: [] };
    entry.steps.push(s);
    groups.set(group.rank, entry);
  }
  const out: string[] = [];
  for (const [, { group, steps }] of [...groups].sort((a, b) => a[0] - b[0])) {
    out.push(`  ${group.heading}`);
    let consumed = 0;
    for (const s of steps) {
      const input = stepOf(s).input;
      const n = input?.summaries?.length;
      const from =
        n && group.inputsFrom !== undefined
          ? ` <- ${group.inputsFrom} #${consumed}..#${consumed + n - 1}${input?.context ? ' + prior context' : ''}`
          : '';
      if (n) consumed += n;
      out.push(`    ${line(s, width)}${from}`);
    }
  }
  return out;
}

// Steps in the order they ran (sortSteps). A strategy that groups its steps (e.g. a tree by level,
// which inputs each merge took) prints them by group; any other prints them as one sequence.
export function renderTrace(
  system: string,
  strategy: string,
  steps: TraceStep[],
  grouping?: TraceGrouping,
  width = 100,
): string {
  const out = [`${system} (${strategy}): ${steps.length} ${steps.length === 1 ? 'step' : 'steps'}`];
  if (grouping) out.push(...groupedLines(steps, grouping, width));
  else for (const s of steps) out.push(`  ${line(s, width)}`);
  return `${out.join('\n')}\n`;
}
