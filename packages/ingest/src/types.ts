// The parsed shapes live in @precis/db, shared with the engine (which must not import ingest).
export type {
  JsonObject,
  JsonValue,
  ParsedChunk,
  ParsedCorpusDocument,
  ParsedDataset,
  ParsedDocument,
  ParseProgress,
} from '@precis/db';
