export const PACKAGE = 'engines';
