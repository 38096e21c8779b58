import { toNumber } from '@precis/db';
import type { DataSource } from 'typeorm';
import { samplePageRows } from '../stores/metric-values.store.js';
import type { SampleQuery } from './sample-query.js';

export interface SampleValue {
  document: string;
  documentId: string;
  system: string;
  metric: string;
  // null: a failed sample (its judge gave no usable score)
  value: number | null;
  producedBy: string;
}

export interface SamplePage {
  // The values matching the filters, in all.
  total: number;
  offset: number;
  samples: SampleValue[];
  // Every system and metric with a per-summary value in the run, whatever the filters.
  systems: string[];
  metrics: string[];
}

// One page of a run's per-summary metric values, filtered and sorted by the database.
export async function sampleValues(db: DataSource, runId: string, q: SampleQuery): Promise<SamplePage> {
  const { count, rows, systems, metrics } = await samplePageRows(db, runId, q);
  return {
    total: toNumber(count),
    offset: q.offset,
    samples: rows.map((r) => ({
      document: String(r.external_id),
      documentId: String(r.document_id),
      system: String(r.system),
      metric: String(r.metric),
      value: r.value === null ? null : Number(r.value),
      producedBy: String(r.produced_by),
    })),
    systems,
    metrics,
  };
}
