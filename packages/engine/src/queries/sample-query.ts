// The SQL of one page of a run's per-summary metric values, filtered and sorted on the server
// (no I/O here). A sample is failed when its value is null: the judge gave no usable score (no
// parseable reply in any attempt, say), so the row records the attempt but no number.

export const SAMPLE_SORTS = ['system', 'document', 'metric', 'value', 'producedBy'] as const;
export type SampleSort = (typeof SAMPLE_SORTS)[number];
export const SAMPLE_ORDERS = ['asc', 'desc'] as const;
export type SampleOrder = (typeof SAMPLE_ORDERS)[number];

export interface SampleFilters {
  system?: string;
  metric?: string;
  // Inclusive bounds on the value; a failed sample (no value) is outside any range.
  min?: number;
  max?: number;
  // true: only failed samples; false: only scored ones; absent: both.
  failed?: boolean;
}

export interface SampleQuery extends SampleFilters {
  // Absent: by system, document and metric (the order of ix_metric_values_samples).
  sort?: SampleSort;
  order?: SampleOrder;
  offset: number;
  limit: number;
}

export interface Sql {
  text: string;
  params: unknown[];
}

// Each sort's columns: the sorted one, then the rest of the row's unique key (system, document,
// metric within a run), so pages never overlap or skip a row whatever the ties. A metric's values
// come by value, as its index (ix_metric_values_samples_metric) holds them. By document: see
// pageByDocument.
const SORT_KEYS: Record<Exclude<SampleSort, 'document'>, string[]> = {
  system: ['mv.system', 'mv.document_id', 'mv.metric'],
  metric: ['mv.metric', 'mv.value', 'mv.system', 'mv.document_id'],
  value: ['mv.value', 'mv.system', 'mv.document_id', 'mv.metric'],
  producedBy: ['mv.produced_by', 'mv.system', 'mv.document_id', 'mv.metric'],
};

// One direction for every key, so an index is walked backwards for desc. A failed sample counts
// as the lowest value: first ascending, last descending.
export function sampleOrderBy(
  sort: Exclude<SampleSort, 'document'> = 'system',
  order: SampleOrder = 'asc',
): string {
  const dir = order === 'desc' ? 'DESC' : 'ASC';
  return SORT_KEYS[sort]
    .map((k) => (k === 'mv.value' ? `${k} ${dir} NULLS ${dir === 'ASC' ? 'FIRST' : 'LAST'}` : `${k} ${dir}`))
    .join(', ');
}

// The WHERE clause over metric_values (as mv) and its parameters, the run id first.
export function sampleWhere(runId: string, f: SampleFilters): Sql {
  const params: unknown[] = [runId];
  const where = ['mv.run_id = $1', 'mv.document_id IS NOT NULL'];
  const add = (clause: string, value: unknown) => {
    params.push(value);
    where.push(clause.replace('?', `$${params.length}`));
  };
  if (f.system !== undefined) add('mv.system = ?', f.system);
  if (f.metric !== undefined) add('mv.metric = ?', f.metric);
  if (f.min !== undefined) add('mv.value >= ?', f.min);
  if (f.max !== undefined) add('mv.value <= ?', f.max);
  if (f.failed === true) where.push('mv.value IS NULL');
  if (f.failed === false) where.push('mv.value IS NOT NULL');
  return { text: where.join(' AND '), params };
}

const COLUMNS = 'd.external_id, mv.document_id, mv.system, mv.metric, mv.value, mv.produced_by';
// A page's rows by their unique key within the run (ix_metric_values_samples).
const BY_KEY = `metric_values mv ON mv.run_id = $1 AND mv.document_id IS NOT NULL
  AND mv.system = k.system AND mv.document_id = k.document_id AND mv.metric = k.metric`;

// Sorted by a column of metric_values: the page's keys first, walking an index without reading
// the rows it skips (an index-only scan, where one covers the filters and the sort), then only
// the page's rows and documents.
function pageByColumn(where: Sql, orderBy: string, cut: string): string {
  return `SELECT ${COLUMNS}
    FROM (SELECT mv.system, mv.document_id, mv.metric FROM metric_values mv
          WHERE ${where.text} ORDER BY ${orderBy} ${cut}) k
    JOIN ${BY_KEY}
    JOIN documents d ON d.id = mv.document_id
    ORDER BY ${orderBy}`;
}

// Sorted by document (its external id): each document's count of matching values, summed in
// document order, names the few documents the page spans; only their values are read, so a deep
// page costs what the first does instead of a sort of every value.
function pageByDocument(where: Sql, order: SampleOrder, n: number): string {
  const dir = order === 'desc' ? 'DESC' : 'ASC';
  const [limit, offset] = [`$${n + 1}::bigint`, `$${n + 2}::bigint`];
  return `WITH counts AS (
      SELECT mv.document_id, count(*) AS n FROM metric_values mv WHERE ${where.text} GROUP BY mv.document_id
    ), ordered AS (
      SELECT c.document_id, d.external_id, c.n,
             sum(c.n) OVER (ORDER BY d.external_id ${dir}, c.document_id ${dir}) - c.n AS before
      FROM counts c JOIN documents d ON d.id = c.document_id
    ), spanned AS MATERIALIZED (
      SELECT * FROM ordered WHERE before < ${offset} + ${limit} AND before + n > ${offset}
    )
    SELECT * FROM (
      SELECT s.external_id, mv.document_id, mv.system, mv.metric, mv.value, mv.produced_by,
             s.before + row_number() OVER (PARTITION BY mv.document_id ORDER BY mv.system ${dir}, mv.metric ${dir}) AS pos
      FROM metric_values mv JOIN spanned s ON s.document_id = mv.document_id
      WHERE ${where.text} AND mv.document_id = ANY(ARRAY(SELECT document_id FROM spanned))
    ) r WHERE pos > ${offset} AND pos <= ${offset} + ${limit} ORDER BY pos`;
}

// The count of matching values, and one page of them with each document's external id.
export function buildSampleQuery(runId: string, q: SampleQuery): { count: Sql; page: Sql } {
  const where = sampleWhere(runId, q);
  const n = where.params.length;
  const text =
    q.sort === 'document'
      ? pageByDocument(where, q.order ?? 'asc', n)
      : pageByColumn(where, sampleOrderBy(q.sort, q.order), `LIMIT $${n + 1} OFFSET $${n + 2}`);
  return {
    count: { text: `SELECT count(*) AS n FROM metric_values mv WHERE ${where.text}`, params: where.params },
    page: { text, params: [...where.params, q.limit, q.offset] },
  };
}

// The distinct values of a column among a run's per-summary rows, one index probe each (a loose
// index scan: PostgreSQL 15 has no skip scan), for the table's filter choices.
export function distinctSampleColumn(column: 'system' | 'metric'): string {
  const rows = 'FROM metric_values WHERE run_id = $1 AND document_id IS NOT NULL';
  return `WITH RECURSIVE v AS (
      (SELECT ${column} AS x ${rows} ORDER BY ${column} LIMIT 1)
      UNION ALL
      SELECT (SELECT ${column} ${rows} AND ${column} > v.x ORDER BY ${column} LIMIT 1) FROM v WHERE v.x IS NOT NULL
    ) SELECT x FROM v WHERE x IS NOT NULL`;
}
