// A family registers its dataset kinds with these types; they live in @precis/db so the engine
// can name them without importing ingest.
export type { CorpusFileText, DatasetFileInput, DatasetKindParser, DatasetKindTable } from '@precis/db';
