import type { Command } from 'commander';
import type { CliContext, GlobalOptions } from '../context.js';
import { DATABASE_COMMANDS } from '../prestart.js';
import { precisHome } from './home.js';
import { readServedHome } from './served-home.js';

function topCommand(program: Command, action: Command): Command {
  let cmd = action;
  while (cmd.parent && cmd.parent !== program) cmd = cmd.parent;
  return cmd;
}

// A command that would open the embedded database while `precis serve` holds it goes through
// that server instead, as `--remote` with the key serve left for this home's user.
export function routeThroughServe(ctx: CliContext, program: Command, action: Command): void {
  const name = topCommand(program, action).name();
  if (!DATABASE_COMMANDS.has(name) && name !== 'meta') return;
  const globals = program.opts<GlobalOptions>();
  if (globals.remote || globals.databaseUrl || ctx.env.DATABASE_URL?.trim()) return;
  const served = readServedHome(precisHome(ctx.env, ctx.cwd));
  if (!served) return;
  program.setOptionValue('remote', served.grpc);
  program.setOptionValue('served', served);
  const env: NodeJS.ProcessEnv = { ...ctx.env, PRECIS_API_KEY: served.key };
  if (!served.tls) delete env.PRECIS_TLS_CA;
  ctx.env = env;
  ctx.stderr.write(`precis: through \`precis serve\` (process ${served.pid}) at ${served.url}\n`);
}
