export { bootstrap } from './bootstrap.js';
export { VERIFIER_ENV, type VerifierConfig } from './config/verifier.env.js';
export { VERIFICATION_STAGES } from './verification/verification.handlers.js';
export { VerifierAppModule } from './verifier.module.js';
