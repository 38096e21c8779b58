import type { RunStage } from '@precis/engine';

// The run stage queue(s) this service owns: judge batches (BooookScore sentence annotation).
// Every verifier replica pulls the same durable queue, so adding processes adds capacity.
export const VERIFICATION_STAGES: RunStage[] = ['verify'];
