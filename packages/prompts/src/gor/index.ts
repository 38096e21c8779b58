export * from './gor.parsers.js';
export * from './gor.templates.js';
