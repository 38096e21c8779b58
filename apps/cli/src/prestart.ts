import { join } from 'node:path';
import { precisHome } from './runtime/home.js';

// Commands that open the embedded database (through withRuntime) unless told otherwise.
export const DATABASE_COMMANDS = new Set([
  'run',
  'runs',
  'report',
  'leaderboard',
  'datasets',
  'ingest',
  'retrieval',
  'keys',
  'export',
  'import',
]);
// Options under which no embedded database is opened.
const ELSEWHERE = /^(--database-url|--remote|--help|-h|--version|-V)(=|$)/;

// The embedded database directory this command line will open, or undefined when it opens none
// (another database, a gateway, help, a command without a database). Reads argv only.
export function embeddedDatabaseDir(argv: string[], env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const args = argv.slice(2);
  if (env.DATABASE_URL?.trim() || args.some((a) => ELSEWHERE.test(a))) return undefined;
  const command = args.find((a) => !a.startsWith('-'));
  if (!command || !DATABASE_COMMANDS.has(command)) return undefined;
  return join(precisHome(env, cwd), 'db');
}
