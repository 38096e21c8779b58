export { gorFamily } from './gor-family.js';
export * from './gor-spec.js';
export { gorTrace } from './report/gor-trace.js';
export type { GorRow } from './score/gor-row.js';
