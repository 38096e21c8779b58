export { bootstrap } from './bootstrap.js';
export { INGESTION_ENV, type IngestionConfig } from './config/ingestion.env.js';
export { IngestionModule } from './ingestion.module.js';
