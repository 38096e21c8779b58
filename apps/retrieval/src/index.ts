export { bootstrap } from './bootstrap.js';
export { RETRIEVAL_ENV, type RetrievalConfig } from './config/retrieval.env.js';
export { RETRIEVAL_STAGES, RETRIEVAL_TASK_HANDLERS } from './retrieval/retrieval.handlers.js';
export { RetrievalAppModule } from './retrieval.module.js';
