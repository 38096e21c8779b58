export const PACKAGE = 'gateway';
