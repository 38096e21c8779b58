import { randomUUID } from 'node:crypto';
import {
  ChunkEntity,
  CorpusDocumentEntity,
  DatasetEntity,
  DocumentEntity,
  RetrievalIndexEntity,
} from '@precis/db';
import { type FileAccessPolicy, readConfinedFile } from '@precis/files';
import { countTokens, DEFAULT_ENCODING } from '@precis/text';
import type { DataSource, EntityManager, QueryDeepPartialEntity } from 'typeorm';
import type { DatasetKindTable } from './dataset-kind.js';
import { type DatasetSummary, toDatasetSummary } from './dataset-summary.js';
import { DatasetConflictError, DatasetValidationError } from './errors.js';
import { parseDatasetText } from './parse-dataset-file.js';
import { decodeDatasetBytes, LOCAL_FILE_POLICY, sha256Hex } from './read-file.js';
import type { JsonObject, ParsedCorpusDocument, ParsedDataset, ParsedDocument } from './types.js';

export interface ImportProgress {
  phase: 'parse' | 'insert' | 'done';
  recordsParsed: number;
  recordsInserted: number;
  // Known once parsing is done.
  totalRecords: number | null;
  rowsInserted: number;
}

export interface ImportDatasetOptions {
  kind: string;
  // The kinds that may be read, with their parsers (default: the generic kinds).
  kinds?: DatasetKindTable;
  path: string;
  // The documents file of a two-file kind (persphere, retrieval).
  documentsPath?: string;
  name: string;
  replace?: boolean;
  // Where and how the file may be read (a server's INGEST_ROOT and limits); default: local checks.
  access?: FileAccessPolicy;
  onProgress?: (progress: ImportProgress) => void;
  // Rows per multi-row INSERT of chunks (kept well under PostgreSQL's 65535 parameters).
  batchSize?: number;
  // Documents per insert step; smaller steps give finer progress.
  documentsPerBatch?: number;
}

export type ImportStatus = 'imported' | 'unchanged' | 'replaced';

export interface ImportResult {
  status: ImportStatus;
  dataset: DatasetSummary;
  counts: Record<string, number>;
}

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
// Large documents (books) are inserted in smaller groups to bound statement size.
const MAX_BATCH_CHARS = 8_000_000;

export function validateDatasetName(name: string): void {
  if (!NAME_PATTERN.test(name)) {
    throw new Error(
      `invalid dataset name ${JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}...` : name)} (${name.length} characters): use 1-100 letters, digits, '.', '_' or '-', starting with a letter or digit`,
    );
  }
}

// All-or-nothing and idempotent: the same file under the same name is a no-op; a different file
// needs `replace`, and then the old content is swapped out inside the same transaction.
export async function importDataset(ds: DataSource, opts: ImportDatasetOptions): Promise<ImportResult> {
  return (await prepareImport(ds, opts)).write();
}

// A dataset read, compared with the stored one and parsed, waiting to be written: a caller with
// several datasets prepares them all (each refusal found before anything is written), then writes.
export interface PreparedImport {
  // importDataset's result; a no-op for a dataset already stored as it is.
  write(): Promise<ImportResult>;
}

export async function prepareImport(ds: DataSource, opts: ImportDatasetOptions): Promise<PreparedImport> {
  validateDatasetName(opts.name);
  const inputs = await readInputs(opts);
  const existing = await ds.getRepository(DatasetEntity).findOne({ where: { name: opts.name } });
  if (existing && checkExisting(existing, opts, inputs.decoded.sha256)) {
    const dataset = toDatasetSummary(existing, opts.kinds);
    return { write: async () => ({ status: 'unchanged', dataset, counts: dataset.counts }) };
  }
  const progress: ImportProgress = {
    phase: 'parse',
    recordsParsed: 0,
    recordsInserted: 0,
    totalRecords: null,
    rowsInserted: 0,
  };
  const report = () => opts.onProgress?.({ ...progress });
  report();
  const parsed = parseOrExplain(opts, inputs.decoded.text, inputs.corpusFile, (n) => {
    progress.recordsParsed = n;
    if (n % 10 === 0) report();
  });
  progress.totalRecords = parsed.documents.length;
  progress.phase = 'insert';
  report();
  return { write: () => writeParsed(ds, opts, { ...inputs, parsed }, progress, report) };
}

async function writeParsed(
  ds: DataSource,
  opts: ImportDatasetOptions,
  { bytes, sourcePath, decoded, corpusFile, parsed }: Inputs & { parsed: ParsedDataset },
  progress: ImportProgress,
  report: () => void,
): Promise<ImportResult> {
  const saved = await ds
    .transaction(async (em) => {
      // Re-read under a row lock: a concurrent import of the same name waits, then sees our row.
      const current = await em
        .getRepository(DatasetEntity)
        .createQueryBuilder('d')
        .setLock('pessimistic_write')
        .where('d.name = :name', { name: opts.name })
        .getOne();
      if (current && checkExisting(current, opts, decoded.sha256))
        return { row: current, status: 'unchanged' as const };
      const datasetId = await writeDatasetRow(em, current, opts, {
        kind: opts.kind,
        sourcePath,
        sourceSha256: decoded.sha256,
        counts: parsed.counts,
        // Source chunks carry token counts in this encoding.
        metadata: {
          ...parsed.metadata,
          bytes: bytes.length,
          tokenEncoding: DEFAULT_ENCODING,
          ...(corpusFile ? { documentsPath: corpusFile.fullPath, documentsBytes: corpusFile.bytes } : {}),
        },
      });
      await insertDocuments(
        em,
        datasetId,
        parsed,
        opts.documentsPerBatch ?? 25,
        opts.batchSize ?? 500,
        (docs, rows) => {
          progress.recordsInserted = docs;
          progress.rowsInserted = rows;
          report();
        },
      );
      await insertCorpus(em, datasetId, parsed.corpus ?? [], opts.batchSize ?? 500);
      progress.rowsInserted += parsed.corpus?.length ?? 0;
      report();
      const row = await em.getRepository(DatasetEntity).findOneOrFail({ where: { id: datasetId } });
      return { row, status: current ? ('replaced' as const) : ('imported' as const) };
    })
    .catch((error: unknown) => {
      throw explainConcurrentImport(error, opts.name);
    });
  progress.phase = 'done';
  report();
  const dataset = toDatasetSummary(saved.row, opts.kinds);
  return { status: saved.status, dataset, counts: dataset.counts };
}

// The dataset's row: a replaced dataset keeps its id (its old content cleared), a new one gets one.
async function writeDatasetRow(
  em: EntityManager,
  current: DatasetEntity | null,
  opts: ImportDatasetOptions,
  values: QueryDeepPartialEntity<DatasetEntity>,
): Promise<string> {
  const datasetId = current ? await clearDataset(em, current) : randomUUID();
  if (current) {
    await em.getRepository(DatasetEntity).update({ id: datasetId }, values);
  } else {
    await em
      .createQueryBuilder()
      .insert()
      .into(DatasetEntity)
      .values({ id: datasetId, name: opts.name, ...values })
      .updateEntity(false)
      .execute();
  }
  return datasetId;
}

// Parsing is pure and deterministic: any error it throws is the file's and would recur on every
// retry, so it is reported as a validation error naming the file (never retried as a crash).
function parseOrExplain(
  opts: ImportDatasetOptions,
  text: string,
  corpusFile: CorpusFile | null,
  onRecord: (n: number) => void,
): ParsedDataset {
  try {
    const documents = corpusFile ? { file: opts.documentsPath!, text: corpusFile.text } : undefined;
    return parseDatasetText(opts.kind, opts.path, text, onRecord, documents, opts.kinds);
  } catch (err) {
    if (err instanceof DatasetValidationError) throw err;
    throw new DatasetValidationError({
      file: opts.path,
      problem: `cannot be parsed as ${opts.kind} (${err instanceof Error ? err.message : String(err)})`,
      hint: 'check that the file is of the kind given; if it is, report this with the file',
    });
  }
}

// Two first imports of one name race past the row lock (there is no row yet); the unique index
// stops the second one, which then reports it plainly.
function explainConcurrentImport(error: unknown, name: string): unknown {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  if (driverError?.code === '23505' && driverError.constraint === 'uq_datasets_name') {
    return new Error(
      `dataset "${name}" was created by another import running at the same time; re-run to see whether it holds the same file`,
      { cause: error },
    );
  }
  return error;
}

// True when the stored dataset already holds this file; throws when it holds another one and
// the caller did not ask to replace it.
function checkExisting(existing: DatasetEntity, opts: ImportDatasetOptions, sha256: string): boolean {
  if (existing.sourceSha256 === sha256 && existing.kind === opts.kind) return true;
  if (opts.replace) return false;
  const detail =
    existing.kind !== opts.kind
      ? `kind ${existing.kind} (you asked for ${opts.kind})`
      : `a different file (sha256 ${existing.sourceSha256.slice(0, 12)}… from ${existing.sourcePath}, ` +
        `now ${sha256.slice(0, 12)}…)`;
  throw new DatasetConflictError(opts.name, existing.sourceSha256, sha256, detail);
}

type Inputs = Awaited<ReturnType<typeof readInputs>>;

async function readInputs(opts: ImportDatasetOptions) {
  // The path as named (made absolute), not the link target: what the user recognises.
  const { bytes, fullPath: sourcePath } = await readConfinedFile(opts.path, opts.access ?? LOCAL_FILE_POLICY);
  const decoded = decodeDatasetBytes(opts.path, bytes);
  const corpusFile = await readCorpusFile(opts);
  // A two-file dataset is the same when both files are.
  if (corpusFile) decoded.sha256 = sha256Hex(Buffer.from(`${decoded.sha256}:${corpusFile.sha256}`));
  return { bytes, sourcePath, decoded, corpusFile };
}

interface CorpusFile {
  text: string;
  sha256: string;
  fullPath: string;
  bytes: number;
}

async function readCorpusFile(opts: ImportDatasetOptions): Promise<CorpusFile | null> {
  if (opts.documentsPath === undefined) return null;
  const read = await readConfinedFile(opts.documentsPath, opts.access ?? LOCAL_FILE_POLICY);
  const decoded = decodeDatasetBytes(opts.documentsPath, read.bytes);
  return { text: decoded.text, sha256: decoded.sha256, fullPath: read.fullPath, bytes: read.bytes.length };
}

async function insertCorpus(
  em: EntityManager,
  datasetId: string,
  corpus: ParsedCorpusDocument[],
  batchSize: number,
): Promise<void> {
  const rows = corpus.map((d, ordinal) => ({
    datasetId,
    externalId: d.externalId,
    ordinal,
    title: d.title,
    text: d.text,
  }));
  for (const batch of batches(rows, batchSize, (r) => r.text.length)) {
    await em
      .createQueryBuilder()
      .insert()
      .into(CorpusDocumentEntity)
      .values(batch)
      .updateEntity(false)
      .execute();
  }
}

async function clearDataset(em: EntityManager, dataset: DatasetEntity): Promise<string> {
  // Indexes of the old content are dropped with it (they would no longer match anyway).
  for (const entity of [CorpusDocumentEntity, RetrievalIndexEntity])
    await em
      .createQueryBuilder()
      .delete()
      .from(entity)
      .where('dataset_id = :id', { id: dataset.id })
      .execute();
  const documents = em.getRepository(DocumentEntity).metadata.tableName;
  await em
    .createQueryBuilder()
    .delete()
    .from(ChunkEntity)
    .where(`document_id IN (SELECT id FROM ${documents} WHERE dataset_id = :id)`, { id: dataset.id })
    .execute();
  await em
    .createQueryBuilder()
    .delete()
    .from(DocumentEntity)
    .where('dataset_id = :id', { id: dataset.id })
    .execute();
  return dataset.id;
}

async function insertDocuments(
  em: EntityManager,
  datasetId: string,
  parsed: ParsedDataset,
  documentsPerBatch: number,
  batchSize: number,
  onBatch: (documents: number, rows: number) => void,
): Promise<void> {
  let docsDone = 0;
  let rows = 0;
  for (const batch of batches(parsed.documents, documentsPerBatch, (d) => d.text.length)) {
    const docRows = batch.map((doc, i) => ({ doc, id: randomUUID(), ordinal: docsDone + i }));
    await em
      .createQueryBuilder()
      .insert()
      .into(DocumentEntity)
      .values(
        docRows.map(({ doc, id, ordinal }) => ({
          id,
          datasetId,
          externalId: doc.externalId,
          ordinal,
          title: doc.title,
          text: doc.text,
          data: asRecord(doc.data),
          metadata: asRecord(doc.metadata),
        })),
      )
      .updateEntity(false)
      .execute();
    rows += docRows.length;
    const chunkRows = docRows.flatMap(({ doc, id }) => chunkValues(id, doc));
    for (const chunkBatch of batches(chunkRows, batchSize, (c) => c.text.length)) {
      await em
        .createQueryBuilder()
        .insert()
        .into(ChunkEntity)
        .values(chunkBatch)
        .updateEntity(false)
        .execute();
      rows += chunkBatch.length;
    }
    docsDone += batch.length;
    onBatch(docsDone, rows);
  }
}

function chunkValues(documentId: string, doc: ParsedDocument) {
  return doc.chunks.map((chunk, ordinal) => ({
    documentId,
    scheme: 'source',
    kind: chunk.kind,
    ordinal,
    sourceIndex: chunk.sourceIndex,
    text: chunk.text,
    tokenCount: countTokens(chunk.text, DEFAULT_ENCODING),
    metadata: asRecord(chunk.metadata),
  }));
}

// TypeORM's deep-partial type cannot express unknown-valued jsonb maps; a JsonObject is a valid value.
function asRecord(value: JsonObject): QueryDeepPartialEntity<Record<string, unknown>> {
  return value as QueryDeepPartialEntity<Record<string, unknown>>;
}

function* batches<T>(items: T[], size: number, weight: (item: T) => number): Generator<T[]> {
  let current: T[] = [];
  let chars = 0;
  for (const item of items) {
    const w = weight(item);
    if (current.length > 0 && (current.length >= size || chars + w > MAX_BATCH_CHARS)) {
      yield current;
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += w;
  }
  if (current.length > 0) yield current;
}
