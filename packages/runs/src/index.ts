export * from './spec/benchmark-spec.schema.js';
export * from './spec/load-spec.js';
