import type { Stage } from '@precis/contracts';

// The stage queue(s) this service owns: the retrieve-stage task kinds of the loaded families
// (PerSphere's top-k retrieval). Indexes are built once per (dataset, retriever, parameters),
// stored in the database and shared by every replica; a replica keeps recent ones in memory.
export const RETRIEVAL_STAGES: Stage[] = ['retrieve'];
