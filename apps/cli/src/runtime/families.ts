import { FamilyRegistry } from '@precis/engine';
import { booksFamily } from '@precis/family-books';
import { gorFamily } from '@precis/family-gor';
import { kgdsFamily } from '@precis/family-kgds';
import { opinionFamily } from '@precis/family-opinion';
import { persphereFamily } from '@precis/family-persphere';

let registry: FamilyRegistry | undefined;

// The benchmark families the CLI runs and validates specs against.
export function cliFamilies(): FamilyRegistry {
  registry ??= new FamilyRegistry([booksFamily, opinionFamily, kgdsFamily, persphereFamily, gorFamily]);
  return registry;
}
