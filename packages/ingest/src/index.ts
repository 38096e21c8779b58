export type {
  CorpusFileText,
  DatasetFileInput,
  DatasetKindParser,
  DatasetKindTable,
} from './dataset-kind.js';
export type { DatasetDetails, DatasetSummary } from './dataset-summary.js';
export { getDatasetSummary, listDatasets, orderCounts, toDatasetSummary } from './dataset-summary.js';
export type { DatasetIssue } from './errors.js';
export { DatasetConflictError, DatasetNotFoundError, DatasetValidationError, formatIssue } from './errors.js';
export { GENERIC_DATASET_KINDS, GENERIC_KIND_TABLE } from './generic-kinds.js';
export { stripGutenbergBoilerplate } from './gutenberg.js';
export type {
  ImportDatasetOptions,
  ImportProgress,
  ImportResult,
  ImportStatus,
  PreparedImport,
} from './import-dataset.js';
export { importDataset, prepareImport, validateDatasetName } from './import-dataset.js';
export { parseJsonText } from './json-text.js';
export { jsonlRecords } from './jsonl-lines.js';
export { boundedTitle } from './limits.js';
export type { ParsedDatasetFile } from './parse-dataset-file.js';
export { parseDatasetFile, parseDatasetText } from './parse-dataset-file.js';
export { corpusDataset, parseCorpusFile, recordId, uniqueRecords } from './parsers/corpus.parser.js';
export { decodeDatasetBytes, firstInvalidUtf8Offset, sha256Hex } from './read-file.js';
export type {
  JsonObject,
  JsonValue,
  ParsedChunk,
  ParsedDataset,
  ParsedDocument,
} from './types.js';
export {
  expectArray,
  expectInteger,
  expectNumber,
  expectObject,
  expectString,
  fieldPath,
  RecordContext,
  requireField,
} from './validate.js';
