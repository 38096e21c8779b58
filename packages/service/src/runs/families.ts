import { FamilyRegistry } from '@precis/engine';
import { booksFamily } from '@precis/family-books';
import { gorFamily } from '@precis/family-gor';
import { kgdsFamily } from '@precis/family-kgds';
import { opinionFamily } from '@precis/family-opinion';
import { persphereFamily } from '@precis/family-persphere';

// The benchmark families a service runs: `{ provide: FAMILIES, useValue: registry }` replaces the
// built-in ones (e.g. a test's own family).
export const FAMILIES = Symbol.for('precis.service.families');

let builtIn: FamilyRegistry | undefined;

// The families shipped with Precis: books (BooookScore), opinion (SummEval-OP judges), KGDS, PerSphere and GoR.
export function builtInFamilies(): FamilyRegistry {
  builtIn ??= new FamilyRegistry([booksFamily, opinionFamily, kgdsFamily, persphereFamily, gorFamily]);
  return builtIn;
}
