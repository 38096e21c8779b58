export const PACKAGE = 'summarization';
