export const PACKAGE = 'llm';
