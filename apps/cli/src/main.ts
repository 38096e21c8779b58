import { closePrestartedPglite, prestartPglite } from '@precis/db/pglite-prestart';
import { embeddedDatabaseDir } from './prestart.js';

// The embedded database opens on its own thread while the CLI's modules load: a fresh
// PRECIS_HOME's template copy and PGlite start (~1 s) overlap the modules' 0.65-0.8 s.
const dir = embeddedDatabaseDir(process.argv, process.env, process.cwd());
if (dir) prestartPglite(dir);
const { runCli } = await import('./program.js');
const code = await runCli(process.argv, {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
await closePrestartedPglite();
process.exitCode = code;
