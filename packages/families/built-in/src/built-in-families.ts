import { type DatasetKind, FamilyRegistry } from '@precis/engine/family';
import { booksFamily } from '@precis/family-books';
import { gorFamily } from '@precis/family-gor';
import { kgdsFamily } from '@precis/family-kgds';
import { opinionFamily } from '@precis/family-opinion';
import { persphereFamily } from '@precis/family-persphere';
import { GENERIC_DATASET_KINDS as GENERIC_KINDS } from '@precis/ingest';

// Dataset kinds no family owns (text, jsonl, retrieval), with @precis/ingest's parsers.
export const GENERIC_DATASET_KINDS: readonly DatasetKind[] = GENERIC_KINDS;

// The order spec errors list the kinds in, as `precis ingest` does.
export const KIND_ORDER = ['kgds', 'summeval-op', 'text', 'jsonl', 'persphere', 'retrieval', 'qmsum'];

// The families shipped with Precis: books (BooookScore), opinion (SummEval-OP judges), KGDS,
// PerSphere and GoR.
export const SHIPPED_FAMILIES = [booksFamily, opinionFamily, kgdsFamily, persphereFamily, gorFamily];

let builtIn: FamilyRegistry | undefined;

// The shipped families' registry. One list, so the CLI, the services and the benches validate and
// run the same (a process adds its own through PRECIS_FAMILIES, see loadFamilies).
export function builtInFamilies(): FamilyRegistry {
  builtIn ??= new FamilyRegistry(SHIPPED_FAMILIES, {
    datasetKinds: GENERIC_DATASET_KINDS,
    kindOrder: KIND_ORDER,
  });
  return builtIn;
}
