// Imported as '@precis/db/pglite-prestart': starting the embedded database early without loading
// TypeORM (see pglite-open.ts).

export { resolvePrecisHome } from './env.js';
export { closePrestartedPglite, isProcessAlive, prestartPglite } from './pglite/pglite-open.js';
