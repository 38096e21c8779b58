export const PACKAGE = 'contracts';
