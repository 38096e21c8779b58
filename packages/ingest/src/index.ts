export type { DatasetDetails, DatasetSummary } from './dataset-summary.js';
export { getDatasetSummary, listDatasets, orderCounts, toDatasetSummary } from './dataset-summary.js';
export type { DatasetIssue } from './errors.js';
export { DatasetConflictError, DatasetNotFoundError, DatasetValidationError, formatIssue } from './errors.js';
export { stripGutenbergBoilerplate } from './gutenberg.js';
export type {
  ImportDatasetOptions,
  ImportProgress,
  ImportResult,
  ImportStatus,
  PreparedImport,
} from './import-dataset.js';
export { importDataset, prepareImport, validateDatasetName } from './import-dataset.js';
export { jsonDepthOverflow } from './limits.js';
export type { ParsedDatasetFile } from './parse-dataset-file.js';
export { parseDatasetFile, parseDatasetText } from './parse-dataset-file.js';
export { KGDS_KEY_FACT_TYPE, KGDS_NON_SUPPORTING_FACT_TYPE } from './parsers/kgds.parser.js';
export type { OpinionDimension } from './parsers/summeval-op.parser.js';
export { OPINION_DIMENSIONS, SUMMEVAL_OP_DIMENSIONS } from './parsers/summeval-op.parser.js';
export { decodeDatasetBytes, firstInvalidUtf8Offset, lineColumnAt, sha256Hex } from './read-file.js';
export type {
  DatasetKindName,
  JsonObject,
  JsonValue,
  ParsedChunk,
  ParsedDataset,
  ParsedDocument,
} from './types.js';
export { CORPUS_KINDS, DATASET_KINDS, isDatasetKind } from './types.js';
