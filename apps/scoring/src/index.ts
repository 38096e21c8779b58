export const PACKAGE = 'scoring';
