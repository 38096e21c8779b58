export const PACKAGE = 'prompts';
