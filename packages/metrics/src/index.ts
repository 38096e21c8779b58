export const PACKAGE = 'metrics';
