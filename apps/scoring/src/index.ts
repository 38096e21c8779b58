export { bootstrap } from './bootstrap.js';
export { SCORING_ENV, type ScoringConfig } from './config/scoring.env.js';
export {
  SCORING_KIT_STAGES,
  SCORING_RUN_STAGES,
  SCORING_STAGES,
  SCORING_TASK_HANDLERS,
} from './scoring/scoring.handlers.js';
export { ScoringAppModule } from './scoring.module.js';
