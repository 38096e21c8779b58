export * from './analyzer.js';
export * from './bm25.js';
export * from './ranking.js';
export * from './rrf.js';
export * from './tfidf.js';
