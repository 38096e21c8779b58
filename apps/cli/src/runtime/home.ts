// Light on purpose (no TypeORM): main.ts finds the home before the CLI's modules load.
export { resolvePrecisHome as precisHome } from '@precis/db/pglite-prestart';
