export * from './errors.js';
export * from './opinion/dimensions.js';
export * from './summarize/book.templates.js';
export * from './template.js';
