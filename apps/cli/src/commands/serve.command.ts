import { dirname, join } from 'node:path';
import { createApiKey, generateApiKey, listApiKeys } from '@precis/db';
import { Command, InvalidArgumentError } from 'commander';
import { DataSource } from 'typeorm';
import type { CliContext, GlobalOptions } from '../context.js';
import { precisHome } from '../runtime/home.js';
import { announceServedHome, dialAddress, readServedHome } from '../runtime/served-home.js';

function port(value: string): string {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 65535)
    throw new InvalidArgumentError(`"${value}" is not a port: give a whole number from 1 to 65535`);
  return String(n);
}

// The page and the API refuse everyone without a key: the first serve of a home makes one; later
// ones say how to get one (a stored key cannot be shown again).
async function keyLine(db: DataSource): Promise<string> {
  const keys = await listApiKeys(db);
  if (keys.length === 0) {
    const { key } = await createApiKey(db, 'serve', 'write');
    return `precis serve: created write key "serve" (shown only now; the page asks for it): ${key}`;
  }
  const names = keys.map((k) => k.name).join(', ');
  return (
    `precis serve: the page asks for an API key: use one made earlier (${names}), or make one now ` +
    'with `precis keys create <name>` from this folder (commands on this home go through this server)'
  );
}

// `precis serve`: runs until SIGINT/SIGTERM, then shuts down gracefully (in-flight work finishes).
export function serveCommand(ctx: CliContext): Command {
  return new Command('serve')
    .description(
      'serve the REST API, the web leaderboard and gRPC with every stage worker on the embedded ' +
        'database (CLI commands on the same home then go through it); with DATABASE_URL and ' +
        'NATS_URL set, serve as the cluster gateway',
    )
    .option('--port <n>', 'HTTP port of the web page and the REST API (default 8080, or HTTP_PORT)', port)
    .option('--grpc-port <n>', 'port of the gRPC API (default 50051, or GRPC_PORT)', port)
    .action(async (opts: { port?: string; grpcPort?: string }, command: Command) => {
      const { databaseUrl } = command.optsWithGlobals<GlobalOptions>();
      const embedded = !databaseUrl && !ctx.env.DATABASE_URL?.trim();
      const home = precisHome(ctx.env, ctx.cwd);
      const already = embedded ? readServedHome(home) : null;
      if (already)
        throw new Error(
          `${home} is already served by process ${already.pid} at ${already.url}: use that one, or stop it first`,
        );
      const processEnv: NodeJS.ProcessEnv = {
        ...ctx.env,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
        ...(opts.port ? { HTTP_PORT: opts.port } : {}),
        ...(opts.grpcPort ? { GRPC_PORT: opts.grpcPort } : {}),
        // A key for the CLI on this home, valid until this serve stops; it is never stored.
        ...(embedded && !ctx.env.PRECIS_ADMIN_KEY ? { PRECIS_ADMIN_KEY: generateApiKey() } : {}),
        // Specs and imports name files of the project that holds the home, as the CLI's do.
        ...(embedded && !ctx.env.INGEST_ROOT?.trim() ? { INGEST_ROOT: dirname(home) } : {}),
      };
      // Loaded here: the gateway's modules take seconds to import, which no other command should pay.
      const { serve } = await import('@precis/api');
      const running = await serve({ processEnv, cwd: ctx.cwd });
      const { HTTP_HOST, HTTP_PORT, GRPC_HOST, GRPC_PORT, GRPC_TLS_CERT } = running.config;
      const url = `http://${HTTP_HOST}:${HTTP_PORT}/`;
      ctx.stdout.write(`precis serve: web page and REST API at ${url}, gRPC at ${GRPC_HOST}:${GRPC_PORT}\n`);
      if (!embedded) return;
      if (!processEnv.PRECIS_API_KEYS) ctx.stdout.write(`${await keyLine(running.app.get(DataSource))}\n`);
      ctx.stdout.write(
        `precis serve: embedded database in ${join(home, 'db')}; dataset files are read under ${processEnv.INGEST_ROOT} (INGEST_ROOT); Ctrl-C stops it\n`,
      );
      announceServedHome(home, {
        pid: process.pid,
        url,
        grpc: dialAddress(GRPC_HOST, GRPC_PORT),
        key: processEnv.PRECIS_ADMIN_KEY as string,
        tls: GRPC_TLS_CERT !== undefined,
      });
    });
}
