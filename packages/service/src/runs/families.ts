// The benchmark families a service runs: `{ provide: FAMILIES, useValue: registry }` replaces the
// built-in ones (`loadedFamilies()` from @precis/families), e.g. with a test's own family.
export const FAMILIES = Symbol.for('precis.service.families');
