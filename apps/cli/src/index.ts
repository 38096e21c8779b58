export const PACKAGE = 'cli';
