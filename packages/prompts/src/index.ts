export * from './booookscore/annotate.parser.js';
export * from './booookscore/annotate.templates.js';
export * from './booookscore/confusion-types.js';
export * from './errors.js';
export * from './opinion/dimensions.js';
export * from './summarize/book.templates.js';
export * from './template.js';
