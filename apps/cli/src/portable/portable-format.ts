// A portable run log: gzip'd JSON lines. Line 1 is the header, then one line per row
// ({"table": ..., "row": {column: value}}) table by table in TABLES order, then the closing line
// ({"end": {"rows": {table: count}}}) that tells a complete file from a truncated one.
export const PORTABLE_FORMAT = 'precis-run';
export const PORTABLE_VERSION = 1;

export interface PortableHeader {
  format: typeof PORTABLE_FORMAT;
  version: number;
  run: string;
  name: string;
  exportedAt: string;
  precis: string;
}

export interface PortableTrailer {
  end: { rows: Record<string, number> };
}

// What an import does with a row whose key is already there: keep the stored row (rows of a run
// never change once it ended), attach a ledger row `runs rm` left without a run, or overwrite
// figures that insert triggers recount while the run's rows go in (counters, committed cost).
export type ConflictRule = 'keep' | 'reattach' | 'overwrite';

export interface PortableTable {
  name: string;
  key: readonly string[];
  // Which rows the export takes: $1 is the run id, $2 the ids of the run's datasets.
  where: string;
  onConflict: ConflictRule;
  // Rows that carry the run's id in this column (checked on import).
  runColumn?: string;
}

const RUN_ROWS = 'run_id = $1';

// In dependency order: a run's datasets before the rows that name their documents, a run's
// ledger before the figures its triggers would otherwise recount.
export const PORTABLE_TABLES: readonly PortableTable[] = [
  { name: 'runs', key: ['id'], where: 'id = $1', onConflict: 'keep', runColumn: 'id' },
  { name: 'datasets', key: ['id'], where: 'id = ANY($2::uuid[])', onConflict: 'keep' },
  { name: 'documents', key: ['id'], where: 'dataset_id = ANY($2::uuid[])', onConflict: 'keep' },
  {
    name: 'chunks',
    key: ['id'],
    where: 'document_id IN (SELECT id FROM documents WHERE dataset_id = ANY($2::uuid[]))',
    onConflict: 'keep',
  },
  {
    name: 'corpus_documents',
    key: ['dataset_id', 'external_id'],
    where: 'dataset_id = ANY($2::uuid[])',
    onConflict: 'keep',
  },
  ...['tasks', 'summaries', 'judgments', 'metric_values'].map((name) => ({
    name,
    key: ['id'],
    where: RUN_ROWS,
    onConflict: 'keep' as const,
    runColumn: 'run_id',
  })),
  {
    name: 'run_unit_failures',
    key: ['run_id', 'unit'],
    where: RUN_ROWS,
    onConflict: 'keep',
    runColumn: 'run_id',
  },
  { name: 'llm_calls', key: ['id'], where: RUN_ROWS, onConflict: 'reattach', runColumn: 'run_id' },
  {
    name: 'run_counters',
    key: ['run_id', 'key', 'shard'],
    where: RUN_ROWS,
    onConflict: 'overwrite',
    runColumn: 'run_id',
  },
  { name: 'run_costs', key: ['run_id'], where: RUN_ROWS, onConflict: 'overwrite', runColumn: 'run_id' },
];

// How a table is named to users (counts, errors).
export const TABLE_LABELS: Record<string, string> = {
  runs: 'runs',
  datasets: 'datasets',
  documents: 'documents',
  chunks: 'chunks',
  corpus_documents: 'corpus documents',
  tasks: 'tasks',
  summaries: 'summaries',
  judgments: 'verdicts',
  metric_values: 'metric values',
  run_unit_failures: 'failed units',
  llm_calls: 'ledger calls',
  run_counters: 'counters',
  run_costs: 'committed cost',
};

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// "tasks 40, ledger calls 3000" for the tables with rows, in file order.
export function describeCounts(counts: Record<string, number>): string {
  return PORTABLE_TABLES.filter((t) => (counts[t.name] ?? 0) > 0)
    .map((t) => `${TABLE_LABELS[t.name]} ${counts[t.name]}`)
    .join(', ');
}
