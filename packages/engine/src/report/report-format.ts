import type { RunEntity } from '@precis/db';

export type ReportFormat = 'md' | 'csv' | 'json' | 'html' | 'text';

export interface RunHeader {
  id: string;
  name: string;
  status: string;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
}

// What every report says about its run.
export function runHeader(run: RunEntity): RunHeader {
  return {
    id: run.id,
    name: run.name,
    status: run.status,
    createdAt: run.createdAt.toISOString(),
    finishedAt: run.finishedAt ? run.finishedAt.toISOString() : null,
    error: run.error,
  };
}

export const reportTitle = (run: RunHeader) => `Run ${run.name} (${run.id}) — ${run.status}`;

export function csvCell(s: string): string {
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}
