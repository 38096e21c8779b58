export { bootstrap } from './bootstrap.js';
export { SCORING_ENV, type ScoringConfig } from './config/scoring.env.js';
export { SCORING_STAGES } from './scoring/scoring.handlers.js';
export { ScoringAppModule } from './scoring.module.js';
