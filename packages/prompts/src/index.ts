export * from './errors.js';
export * from './opinion/dimensions.js';
export * from './template.js';
