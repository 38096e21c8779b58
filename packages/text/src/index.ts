export const PACKAGE = 'text';
