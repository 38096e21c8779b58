export * from './persphere.parsers.js';
export * from './persphere.templates.js';
