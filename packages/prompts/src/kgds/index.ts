export * from './kgds.parsers.js';
export * from './kgds.templates.js';
