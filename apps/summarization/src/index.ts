export { bootstrap } from './bootstrap.js';
export { SUMMARIZATION_ENV, type SummarizationConfig } from './config/summarization.env.js';
export { SUMMARIZATION_STAGES } from './summarization/summarization.handlers.js';
export { SummarizationAppModule } from './summarization.module.js';
