import { FamilyRegistry } from '@precis/engine';
import { booksFamily } from '@precis/family-books';
import { gorFamily } from '@precis/family-gor';
import { kgdsFamily } from '@precis/family-kgds';
import { opinionFamily } from '@precis/family-opinion';
import { persphereFamily } from '@precis/family-persphere';

let builtIn: FamilyRegistry | undefined;

// The families shipped with Precis: books (BooookScore), opinion (SummEval-OP judges), KGDS,
// PerSphere and GoR. One list, so the CLI, the services and the benches validate and run the same.
export function builtInFamilies(): FamilyRegistry {
  builtIn ??= new FamilyRegistry([booksFamily, opinionFamily, kgdsFamily, persphereFamily, gorFamily]);
  return builtIn;
}
