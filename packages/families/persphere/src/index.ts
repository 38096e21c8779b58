export { macroF1 } from './metrics/classification.js';
export { persphereFamily } from './persphere-family.js';
export { type PersphereRow, persphereRow } from './score/persphere-row.js';
export { orderDocuments } from './summary/document-order.js';
export { splitAmong } from './summary/persphere-strategy.js';
