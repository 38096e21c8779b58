export const PACKAGE = 'ingest';
