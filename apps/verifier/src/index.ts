export const PACKAGE = 'verifier';
