import { FamilyRegistry } from '@precis/engine';
import { booksFamily } from '@precis/family-books';
import { opinionFamily } from '@precis/family-opinion';

let registry: FamilyRegistry | undefined;

// The benchmark families the CLI runs and validates specs against.
export function cliFamilies(): FamilyRegistry {
  registry ??= new FamilyRegistry([booksFamily, opinionFamily]);
  return registry;
}
