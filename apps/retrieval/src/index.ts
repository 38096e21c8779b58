export { bootstrap } from './bootstrap.js';
export { RETRIEVAL_ENV, type RetrievalConfig } from './config/retrieval.env.js';
export { RETRIEVAL_STAGES } from './retrieval/retrieval.handlers.js';
export { RetrievalAppModule } from './retrieval.module.js';
