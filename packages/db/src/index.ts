export const PACKAGE = 'db';
