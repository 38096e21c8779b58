import type { RunEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import type { BenchmarkSpec } from '../spec/benchmark-spec.schema.js';
import { documentValueRows } from '../stores/metric-values.store.js';
import { documentSummaryRows } from '../stores/summaries.store.js';
import { findRunDocument } from './run-queries.js';

export interface SideBySideValue {
  metric: string;
  // null: a failed sample (its judge gave no usable score)
  value: number | null;
  producedBy: string;
  // Why it failed, where the family recorded it (a judge's unparseable samples, say).
  failure: string | null;
}

export interface SideBySideSystem {
  system: string;
  // The spec's strategy, or null for a system a source expanded into (dataset candidates).
  strategy: string | null;
  // The final summary and what wrote it; null when the system has none for this document.
  summary: string | null;
  producer: string | null;
  finalStep: string | null;
  values: SideBySideValue[];
}

export interface SideBySide {
  document: { id: string; externalId: string };
  // Every metric any system has a value of, sorted: the grid's rows.
  metrics: string[];
  systems: SideBySideSystem[];
}

interface SummaryRow {
  system: string;
  text: string;
  producer: string;
  final_step: string;
}
interface ValueRow {
  system: string;
  metric: string;
  value: number | string | null;
  produced_by: string;
  failure: string | null;
}

// Columns in the spec's order; systems a source expanded into (a dataset's candidates) where that
// source stands, by name. A spec system with neither summary nor value still gets its column.
export function sideBySideColumns(
  spec: Pick<BenchmarkSpec, 'systems'>,
  found: Set<string>,
): { name: string; strategy: string | null }[] {
  const specNames = spec.systems.map((s) => s.name);
  const expanding = spec.systems.findIndex((s) => s.source !== undefined && !found.has(s.name));
  const rank = (name: string) => {
    const i = specNames.indexOf(name);
    return i >= 0 ? i : expanding >= 0 ? expanding : specNames.length;
  };
  const names = new Set([...found, ...spec.systems.filter((s) => s.source === undefined).map((s) => s.name)]);
  return [...names]
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => ({ name, strategy: spec.systems.find((s) => s.name === name)?.strategy ?? null }));
}

// Each system's final summary of one document and its per-summary metric values: the run's
// side-by-side grid, the same for every family.
export async function sideBySide(db: DataSource, run: RunEntity, documentRef: string): Promise<SideBySide> {
  const document = await findRunDocument(db, run, documentRef);
  const [summaries, values]: [SummaryRow[], ValueRow[]] = await Promise.all([
    documentSummaryRows(db, run.id, document.id),
    documentValueRows(db, run.id, document.id),
  ]);
  const found = new Set([...summaries.map((s) => s.system), ...values.map((v) => v.system)]);
  const systems = sideBySideColumns(run.spec as unknown as BenchmarkSpec, found).map(({ name, strategy }) => {
    const summary = summaries.find((s) => s.system === name);
    return {
      system: name,
      strategy,
      summary: summary?.text ?? null,
      producer: summary?.producer ?? null,
      finalStep: summary?.final_step ?? null,
      values: values
        .filter((v) => v.system === name)
        .map((v) => ({
          metric: v.metric,
          value: v.value === null ? null : Number(v.value),
          producedBy: v.produced_by,
          failure: v.failure,
        })),
    };
  });
  return {
    document: { id: document.id, externalId: document.externalId },
    metrics: [...new Set(values.map((v) => v.metric))].sort(),
    systems,
  };
}
