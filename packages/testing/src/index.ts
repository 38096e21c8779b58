export const PACKAGE = 'testing';
