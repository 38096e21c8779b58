export const PACKAGE = 'ingestion';
