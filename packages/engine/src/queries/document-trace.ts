import type { RunEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import type { FamilyRegistry } from '../family/family-registry.js';
import { loadTraceBlocks } from '../report/render-run-report.js';
import { renderTrace, type TraceStep, traceStepKey } from '../report/render-trace.js';
import type { ReportBlock } from '../report/report-blocks.js';
import { renderBlocks } from '../report/report-render.js';
import { sortSteps } from '../report/step-order.js';
import { loadTraces } from './run-queries.js';

// Every stored step of each system for one document, and the families' verdicts on its
// summaries: what `runs show --trace`, GET .../traces/{document} and GetDocumentTrace give.
export interface DocumentTrace {
  document: { id: string; externalId: string };
  systems: { system: string; strategy: string; steps: TraceStep[] }[];
  verdicts: ReportBlock[];
}

export async function documentTrace(
  families: FamilyRegistry,
  db: DataSource,
  run: RunEntity,
  documentRef: string,
): Promise<DocumentTrace> {
  const traces = await loadTraces(families, db, run, documentRef);
  const verdicts = await loadTraceBlocks(families, db, run, traces.document.id);
  return {
    document: { id: traces.document.id, externalId: traces.document.externalId },
    systems: traces.systems,
    verdicts,
  };
}

// The trace as `runs show --trace` prints it: each system's steps, then the verdicts (never cut
// to the terminal: a trace is read for its texts). Each strategy orders and groups its own steps
// (a trace from a server comes in its order already; sorting again keeps it).
export function renderDocumentTrace(trace: DocumentTrace, families: FamilyRegistry): string {
  const parts = [`document ${trace.document.externalId} (${trace.document.id})\n\n`];
  for (const t of trace.systems) {
    const strategy = families.strategies.get(t.strategy);
    const steps = sortSteps(t.steps, traceStepKey, strategy?.stepOrder?.bind(strategy));
    parts.push(`${renderTrace(t.system, t.strategy, steps, strategy?.traceGroup?.bind(strategy))}\n`);
  }
  if (trace.verdicts.length) parts.push(renderBlocks('verdicts', trace.verdicts, 'text', { wide: true }));
  return parts.join('');
}
