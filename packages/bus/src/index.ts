export const PACKAGE = 'bus';
