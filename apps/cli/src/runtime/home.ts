import { join, resolve } from 'node:path';

// PRECIS_HOME, or ./.precis: where the embedded database (db/) and local state live.
export function precisHome(env: NodeJS.ProcessEnv, cwd: string): string {
  const home = env.PRECIS_HOME?.trim();
  return home ? resolve(cwd, home) : join(cwd, '.precis');
}
