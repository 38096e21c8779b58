import { FamilyRegistry } from '@precis/engine';
import { booksFamily } from '@precis/family-books';
import { opinionFamily } from '@precis/family-opinion';

export const builtInFamilies = new FamilyRegistry([booksFamily, opinionFamily]);
