import { createApiKey, listApiKeys } from '@precis/db';
import { Command, InvalidArgumentError } from 'commander';
import { DataSource } from 'typeorm';
import type { CliContext, GlobalOptions } from '../context.js';

function port(value: string): string {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new InvalidArgumentError(`"${value}" is not a port: give a whole number from 1 to 65535`);
  return String(n);
}

// The embedded database holds no key yet: without one the page and the API would refuse
// everyone, and `precis keys create` cannot open the database while it is served.
async function firstKey(db: DataSource, out: NodeJS.WritableStream): Promise<void> {
  if ((await listApiKeys(db)).length > 0) return;
  const { key } = await createApiKey(db, 'serve', 'write');
  out.write(`precis serve: created write key "serve" (shown only now; the page asks for it): ${key}\n`);
}

// `precis serve`: runs until SIGINT/SIGTERM, then shuts down gracefully (in-flight work finishes).
export function serveCommand(ctx: CliContext): Command {
  return new Command('serve')
    .description(
      'serve the REST API, the web leaderboard and gRPC with every stage worker on the embedded ' +
        'database; with DATABASE_URL and NATS_URL set, serve as the cluster gateway',
    )
    .option('--port <n>', 'HTTP port of the web page and the REST API (default 8080, or HTTP_PORT)', port)
    .option('--grpc-port <n>', 'port of the gRPC API (default 50051, or GRPC_PORT)', port)
    .action(async (opts: { port?: string; grpcPort?: string }, command: Command) => {
      const { databaseUrl } = command.optsWithGlobals<GlobalOptions>();
      const processEnv: NodeJS.ProcessEnv = {
        ...ctx.env,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...(opts.port ? { HTTP_PORT: opts.port } : {}),
        ...(opts.grpcPort ? { GRPC_PORT: opts.grpcPort } : {}),
      };
      // Loaded here: the gateway's modules take seconds to import, which no other command should pay.
      const { serve } = await import('@precis/api');
      const running = await serve({ processEnv, cwd: ctx.cwd });
      const { HTTP_HOST, HTTP_PORT } = running.config;
      ctx.stdout.write(`precis serve: web page and REST API at http://${HTTP_HOST}:${HTTP_PORT}/\n`);
      if (!processEnv.DATABASE_URL && !processEnv.PRECIS_API_KEYS)
        await firstKey(running.app.get(DataSource), ctx.stdout);
    });
}
