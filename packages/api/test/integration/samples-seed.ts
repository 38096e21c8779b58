import type { DataSource } from 'typeorm';

// A run of three systems (one a dataset's candidates) on three documents, two metrics each, three
// of the values failed; another run's values and a system-level row that no answer may include.
// Document ids order b-doc, c-doc, a-doc; external ids order a-doc, b-doc, c-doc.
export const SEED_DOCS = [
  ['00000000-0000-4000-8000-000000000001', 'b-doc'],
  ['00000000-0000-4000-8000-000000000002', 'c-doc'],
  ['00000000-0000-4000-8000-000000000003', 'a-doc'],
] as const;

const FLUENCY = 'model:judge fluency@1';
const COHERENCE = 'model:judge coherence@1';
const FAILURE = 'none of the 1 samples had a parseable <score>';

// [system, document, fluency, coherence]; null is a failed sample.
const VALUES: [string, string, number | null, number | null][] = [
  ['lead', 'b-doc', 4, 3.5],
  ['lead', 'a-doc', 2, null],
  ['lead', 'c-doc', 5, 1],
  ['writer', 'b-doc', null, 4.5],
  ['writer', 'a-doc', 3, 2.5],
  ['writer', 'c-doc', null, 3],
  ['human', 'b-doc', 4.5, 4],
  ['human', 'a-doc', 1.5, 5],
  ['human', 'c-doc', 3.5, 2],
];

const SPEC = {
  name: 'samples-seed',
  datasets: [{ name: 'seed-reviews', kind: 'jsonl', path: 'x.jsonl' }],
  systems: [
    { name: 'lead', strategy: 'opinion', engine: 'lead' },
    { name: 'candidates', source: 'dataset', strategy: 'opinion' },
    { name: 'writer', strategy: 'opinion', model: 'writer-model' },
    { name: 'silent', strategy: 'opinion', engine: 'textrank' },
  ],
  metrics: [],
};

async function insertRun(db: DataSource, name: string): Promise<string> {
  const [run] = await db.query(
    `INSERT INTO runs (name, status, spec, spec_sha256) VALUES ($1, 'completed', $2, $1) RETURNING id`,
    [name, JSON.stringify({ ...SPEC, name })],
  );
  return run.id as string;
}

async function insertValues(db: DataSource, runId: string, docs: Map<string, string>): Promise<void> {
  const rows = VALUES.flatMap(([system, doc, fluency, coherence]) =>
    (
      [
        ['m:fluency', fluency, FLUENCY],
        ['m:coherence', coherence, COHERENCE],
      ] as const
    ).map(([metric, value, by]) => [system, docs.get(doc)!, metric, value, by]),
  );
  for (const [system, documentId, metric, value, by] of rows)
    await db.query(
      `INSERT INTO metric_values (id, run_id, system, document_id, metric, value, details, produced_by)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        `${runId}:${system}:${documentId}:${metric}`,
        runId,
        system,
        documentId,
        metric,
        value,
        JSON.stringify(value === null && metric === 'm:fluency' ? { failure: FAILURE } : {}),
        by,
      ],
    );
}

// The run the tests read, and its summaries of c-doc (the writer's and the silent system's missing).
export async function seedSamples(db: DataSource): Promise<string> {
  const [dataset] = await db.query(
    `INSERT INTO datasets (name, kind, source_path, source_sha256) VALUES ('seed-reviews', 'jsonl', 'x.jsonl', 'x') RETURNING id`,
  );
  for (const [i, [id, ext]] of SEED_DOCS.entries())
    await db.query(
      'INSERT INTO documents (id, dataset_id, external_id, ordinal, text) VALUES ($1, $2, $3, $4, $5)',
      [id, dataset.id, ext, i, `Reviews of ${ext}.`],
    );
  const docs = new Map(SEED_DOCS.map(([id, ext]) => [ext, id]));
  const runId = await insertRun(db, 'samples-seed');
  await insertValues(db, runId, docs);
  const other = await insertRun(db, 'samples-other');
  await insertValues(db, other, docs);
  await db.query(
    `INSERT INTO metric_values (id, run_id, system, document_id, metric, value, details, produced_by)
     VALUES ($1, $2, 'lead', NULL, 'm:fluency', 3.67, '{}', $3)`,
    [`${runId}:lead:*:m:fluency`, runId, FLUENCY],
  );
  const c = docs.get('c-doc')!;
  for (const [system, text, producer, step] of [
    ['lead', 'Lead of c.', 'engine:lead', 'o/final'],
    ['human', 'Human <b>c</b>.', 'dataset:human', 'dataset'],
    ['writer', 'Writer on c.', 'model:writer-model', 'o/final'],
  ])
    await db.query(
      `INSERT INTO summaries (id, run_id, system, document_id, text, final_step, producer)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [`${runId}:${system}:${c}`, runId, system, c, text, step, producer],
    );
  return runId;
}
