export const PACKAGE = 'retrieval';
