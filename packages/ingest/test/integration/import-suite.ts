import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  DatasetConflictError,
  DatasetValidationError,
  getDatasetSummary,
  type ImportDatasetOptions,
  type ImportProgress,
  importDataset as importWithKinds,
  listDatasets,
} from '@precis/ingest';
import type { DataSource } from 'typeorm';
// The shipped kind table, whose family kinds (kgds, summeval-op) these imports read.
import { builtInFamilies } from '../../../families/built-in/src/index.js';

const KINDS = builtInFamilies().datasetKinds;
const importDataset = (ds: DataSource, opts: ImportDatasetOptions) =>
  importWithKinds(ds, { kinds: KINDS, ...opts });

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
export const DATASETS = resolve(repoRoot, '../shared/datasets');
export const KGDS_PATH = join(DATASETS, 'kgds/KGDS.json');
export const SUMMEVAL_OP_PATH = join(DATASETS, 'summeval-op/summeval-op.jsonl');
export const PRIDE_PATH = join(DATASETS, 'books/pride-and-prejudice.txt');

export const KGDS_COUNTS = {
  documents: 100,
  paragraphs: 1437,
  supportingParagraphs: 432,
  utterances: 412,
  opinions: 873,
  keyFacts: 1638,
  nonSupportingFacts: 4996,
};

// Row count of every table in the schema (not just ours): a failed import must change none.
async function tableCounts(ds: DataSource): Promise<Record<string, number>> {
  const tables = await ds.query<{ table_name: string }[]>(
    `SELECT table_name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const counts: Record<string, number> = {};
  for (const { table_name } of tables) {
    const [row] = await ds.query<{ n: string | number }[]>(`SELECT COUNT(*) AS n FROM "${table_name}"`);
    counts[table_name] = Number(row!.n);
  }
  expect(Object.keys(counts)).toEqual(expect.arrayContaining(['datasets', 'documents', 'chunks']));
  return counts;
}

// The same behaviour is required of PostgreSQL and the embedded PGlite database.
export function describeImportSuite(
  label: string,
  open: () => Promise<{ ds: DataSource; close(): Promise<void> }>,
) {
  describe(`importDataset on ${label}`, () => {
    let ds: DataSource;
    let close: () => Promise<void>;
    let tmp: string;

    beforeAll(async () => {
      ({ ds, close } = await open());
      tmp = await mkdtemp(join(tmpdir(), 'precis-ingest-'));
    });

    afterAll(async () => {
      await close?.();
      if (tmp) await rm(tmp, { recursive: true, force: true });
    });

    it('imports KGDS with the dataset counts and keeps paragraph indices', async () => {
      const events: ImportProgress[] = [];
      const result = await importDataset(ds, {
        kind: 'kgds',
        path: KGDS_PATH,
        name: 'kgds',
        onProgress: (p) => events.push(p),
      });
      expect(result.status).toBe('imported');
      expect(result.counts).toEqual(KGDS_COUNTS);
      expect(events.at(-1)).toMatchObject({ phase: 'done', recordsInserted: 100, totalRecords: 100 });

      const summary = await getDatasetSummary(ds, 'kgds', KINDS);
      expect(summary.kind).toBe('kgds');
      // In the order the kgds kind registers (jsonb keeps none).
      expect(Object.keys(summary.counts)).toEqual(Object.keys(KGDS_COUNTS));
      expect(summary.counts).toEqual(KGDS_COUNTS);
      expect(summary.stored).toEqual({
        documents: 100,
        chunks: { paragraph: 1437, utterance: 412 },
        corpusDocuments: 0,
      });

      const [first] = await ds.query<{ source_index: number; text: string }[]>(
        `SELECT c.source_index, c.text FROM chunks c JOIN documents d ON d.id = c.document_id
         WHERE d.dataset_id = $1 AND d.external_id = '0' AND c.kind = 'paragraph' ORDER BY c.ordinal LIMIT 1`,
        [summary.id],
      );
      expect(first!.source_index).toBe(1);
      const [untokenized] = await ds.query<{ n: string | number }[]>(
        `SELECT COUNT(*) AS n FROM chunks c JOIN documents d ON d.id = c.document_id
         WHERE d.dataset_id = $1 AND (c.token_count IS NULL OR c.token_count <= 0)`,
        [summary.id],
      );
      expect(Number(untokenized!.n)).toBe(0);
      expect(first!.text).toMatch(/^Jamal Murray hit a stunning 15-foot buzzer-beater/);
    });

    it('is a no-op for the same file under the same name', async () => {
      const before = await tableCounts(ds);
      const again = await importDataset(ds, { kind: 'kgds', path: KGDS_PATH, name: 'kgds' });
      expect(again.status).toBe('unchanged');
      expect(await tableCounts(ds)).toEqual(before);
    });

    it('imports SummEval-OP products, reviews and rated summaries', async () => {
      const result = await importDataset(ds, {
        kind: 'summeval-op',
        path: SUMMEVAL_OP_PATH,
        name: 'summeval-op',
      });
      expect(result.counts).toEqual({ documents: 32, products: 32, reviews: 256, summaries: 416 });
      const [doc] = await ds.query<{ data: { summaries: { ratings: Record<string, number> }[] } | string }[]>(
        `SELECT data FROM documents WHERE dataset_id = $1 ORDER BY ordinal LIMIT 1`,
        [result.dataset.id],
      );
      const data = typeof doc!.data === 'string' ? JSON.parse(doc!.data) : doc!.data;
      expect(Object.keys(data.summaries[0].ratings).sort()).toEqual(
        [
          'aspect_coverage',
          'coherence',
          'faithfulness',
          'fluency',
          'relevance',
          'sentiment_consistency',
          'specificity',
        ].sort(),
      );
    });

    it('imports Pride and Prejudice as one document of paragraphs', async () => {
      const result = await importDataset(ds, { kind: 'text', path: PRIDE_PATH, name: 'pride' });
      expect(result.counts.documents).toBe(1);
      expect(result.counts.paragraphs).toBeGreaterThan(1000);
      expect(result.counts.words).toBeGreaterThan(115_000);
      const summary = await getDatasetSummary(ds, 'pride');
      expect(summary.stored).toEqual({
        documents: 1,
        chunks: { paragraph: result.counts.paragraphs },
        corpusDocuments: 0,
      });
      const names = (await listDatasets(ds)).map((d) => d.name);
      expect(names).toEqual(['kgds', 'pride', 'summeval-op']);
    });

    const kgdsSample = {
      SBK: [{ paragraph_index: 1, paragraph_text: 'Text.' }],
      KGD: [{ participant: 'Person1', utterance: 'Hi.' }],
      BSP: [],
      CAO: [],
      BSPAF: [],
      BNPAF: [],
    };
    const badInputs: {
      name: string;
      kind: 'kgds' | 'jsonl' | 'text';
      file: string;
      content: string | Buffer;
      message: RegExp;
    }[] = [
      {
        name: 'truncated JSON',
        kind: 'kgds',
        file: 'truncated.json',
        content: JSON.stringify([kgdsSample, kgdsSample], null, 1).slice(0, 150),
        message: /truncated\.json: line \d+, column \d+: invalid JSON: input ends unexpectedly.*truncated/,
      },
      {
        name: 'missing required field',
        kind: 'kgds',
        file: 'missing.json',
        content: JSON.stringify([kgdsSample, { ...kgdsSample, KGD: [{ participant: 'Person2' }] }]),
        message: /missing\.json: \[1\]\.KGD\[0\]\.utterance: missing required field/,
      },
      {
        name: 'wrong type',
        kind: 'jsonl',
        file: 'wrong-type.jsonl',
        content: '{"id":"a","text":"ok"}\n{"id":"b","text":["not","a","string"]}\n',
        message: /wrong-type\.jsonl: line 2, field text: expected a string, got an array/,
      },
      {
        name: 'empty file',
        kind: 'jsonl',
        file: 'empty.jsonl',
        content: '',
        message: /empty\.jsonl: file is empty/,
      },
      {
        name: 'invalid UTF-8',
        kind: 'text',
        file: 'latin1.txt',
        content: Buffer.from('Caf\xe9 au lait\n', 'latin1'),
        message: /latin1\.txt: line 1: is not valid UTF-8 \(invalid byte 0xe9/,
      },
      {
        name: 'duplicate id',
        kind: 'jsonl',
        file: 'dupe.jsonl',
        content: '{"id":"x","text":"a"}\n{"id":"y","text":"b"}\n{"id":"x","text":"c"}\n',
        message: /dupe\.jsonl: line 3, field id: duplicate id "x" \(first used on line 1\)/,
      },
    ];

    for (const bad of badInputs) {
      it(`rejects ${bad.name} naming file, record and field, writing nothing`, async () => {
        const path = join(tmp, bad.file);
        await writeFile(path, bad.content);
        const before = await tableCounts(ds);
        const error = await importDataset(ds, { kind: bad.kind, path, name: `bad-${bad.kind}` }).catch(
          (e) => e,
        );
        expect(error).toBeInstanceOf(DatasetValidationError);
        expect((error as Error).message).toMatch(bad.message);
        expect(await tableCounts(ds)).toEqual(before);
      });
    }

    it('lets exactly one of two concurrent first imports of a name win', async () => {
      const file = join(tmp, 'race.jsonl');
      await writeFile(file, '{"id":"r1","text":"Race one."}\n{"id":"r2","text":"Race two."}\n');
      const outcomes = await Promise.allSettled([
        importDataset(ds, { kind: 'jsonl', path: file, name: 'race' }),
        importDataset(ds, { kind: 'jsonl', path: file, name: 'race' }),
      ]);
      const statuses = outcomes.map((o) => (o.status === 'fulfilled' ? o.value.status : 'rejected'));
      expect(statuses.filter((s) => s === 'imported')).toHaveLength(1);
      for (const o of outcomes) {
        if (o.status === 'rejected')
          expect(String(o.reason)).toMatch(/another import running at the same time/);
        else expect(['imported', 'unchanged']).toContain(o.value.status);
      }
      expect((await getDatasetSummary(ds, 'race')).stored.documents).toBe(2);
    });

    it('refuses a changed file under an existing name unless replace is set, then replaces atomically', async () => {
      const v1 = join(tmp, 'corpus-v1.jsonl');
      const v2 = join(tmp, 'corpus-v2.jsonl');
      await writeFile(
        v1,
        '{"id":"a","text":"One.\\n\\nTwo."}\n{"id":"b","text":"Three.","references":["R"]}\n',
      );
      await writeFile(v2, '{"id":"c","text":"Four."}\n');
      const first = await importDataset(ds, { kind: 'jsonl', path: v1, name: 'corpus' });
      expect(first.status).toBe('imported');
      expect(first.counts).toEqual({ documents: 2, references: 1, paragraphs: 3 });

      const before = await tableCounts(ds);
      const conflict = await importDataset(ds, { kind: 'jsonl', path: v2, name: 'corpus' }).catch((e) => e);
      expect(conflict).toBeInstanceOf(DatasetConflictError);
      expect((conflict as Error).message).toMatch(
        /dataset "corpus" already exists with a different file.*--replace/,
      );
      expect(await tableCounts(ds)).toEqual(before);

      // A replacement that fails validation leaves the old content in place.
      const broken = join(tmp, 'corpus-broken.jsonl');
      await writeFile(broken, '{"id":"c"}\n');
      await expect(
        importDataset(ds, { kind: 'jsonl', path: broken, name: 'corpus', replace: true }),
      ).rejects.toThrow(/line 1, field text: missing required field/);
      expect(await tableCounts(ds)).toEqual(before);

      const replaced = await importDataset(ds, { kind: 'jsonl', path: v2, name: 'corpus', replace: true });
      expect(replaced.status).toBe('replaced');
      expect(replaced.dataset.id).toBe(first.dataset.id);
      const summary = await getDatasetSummary(ds, 'corpus');
      expect(summary.counts).toEqual({ documents: 1, references: 0, paragraphs: 1 });
      expect(summary.stored).toEqual({ documents: 1, chunks: { paragraph: 1 }, corpusDocuments: 0 });
      const after = await tableCounts(ds);
      expect(after.documents).toBe(before.documents! - 1);
      expect(after.chunks).toBe(before.chunks! - 2);
    });

    it('imports a two-file retrieval dataset and swaps its corpus (and indexes) on replace', async () => {
      const queries = join(tmp, 'rq.jsonl');
      const docs1 = join(tmp, 'rd1.jsonl');
      const docs2 = join(tmp, 'rd2.jsonl');
      await writeFile(queries, '{"id":"q","text":"storm?","relevant":["a"]}\n');
      await writeFile(docs1, '{"id":"a","text":"A storm."}\n{"id":"b","text":"Calm."}\n');
      await writeFile(docs2, '{"id":"a","text":"A storm again."}\n');
      const first = await importDataset(ds, {
        kind: 'retrieval',
        path: queries,
        documentsPath: docs1,
        name: 'ret',
      });
      expect(first.counts).toEqual({ queries: 1, relevant: 1, documents: 2 });
      await ds.query(
        `INSERT INTO retrieval_indexes (dataset_id, key, dataset_sha256, data, documents, build_ms) VALUES ($1, 'bm25', $2, $3, 2, 1)`,
        [first.dataset.id, first.dataset.sourceSha256, Buffer.from([1])],
      );
      // Same queries file, another documents file: a different dataset.
      await expect(
        importDataset(ds, { kind: 'retrieval', path: queries, documentsPath: docs2, name: 'ret' }),
      ).rejects.toThrow(/dataset "ret" already exists with a different file/);
      const replaced = await importDataset(ds, {
        kind: 'retrieval',
        path: queries,
        documentsPath: docs2,
        name: 'ret',
        replace: true,
      });
      expect(replaced.counts).toEqual({ queries: 1, relevant: 1, documents: 1 });
      expect((await getDatasetSummary(ds, 'ret')).stored).toEqual({
        documents: 1,
        chunks: {},
        corpusDocuments: 1,
      });
      const indexes = await ds.query('SELECT COUNT(*) AS n FROM retrieval_indexes WHERE dataset_id = $1', [
        first.dataset.id,
      ]);
      expect(Number(indexes[0].n)).toBe(0);
    });
  });
}
