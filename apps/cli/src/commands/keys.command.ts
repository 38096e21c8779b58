import {
  API_KEY_SCOPES,
  type ApiKeyInfo,
  createApiKey,
  isApiKeyScope,
  listApiKeys,
  removeApiKey,
} from '@precis/db';
import { Command, Option } from 'commander';
import { type CliContext, withDataSource } from '../context.js';
import { formatTable, printJson } from '../output.js';

function shown(k: ApiKeyInfo) {
  return { name: k.name, prefix: k.prefix, scope: k.scope, createdAt: k.createdAt.toISOString() };
}

// API keys of a gateway, managed on its database (--database-url or DATABASE_URL); the key is
// printed once, at creation, and only its digest is stored.
export function keysCommand(ctx: CliContext): Command {
  const keys = new Command('keys').description(
    "manage the API keys a gateway accepts (on the gateway's database)",
  );

  keys
    .command('create')
    .description('create a key and print it once (only its SHA-256 is stored)')
    .argument('<name>', 'a name for the key, shown in listings and in the gateway log')
    .addOption(
      new Option('--scope <scope>', 'read: list and show; write: also create, cancel runs and import')
        .choices(API_KEY_SCOPES)
        .default('write'),
    )
    .option('--json', 'print as JSON')
    .action(async (name: string, opts: { scope: string; json?: boolean }, command: Command) => {
      if (!isApiKeyScope(opts.scope)) throw new Error(`--scope: use one of ${API_KEY_SCOPES.join(', ')}`);
      const scope = opts.scope;
      await withDataSource(ctx, command, async (db) => {
        const { key, info } = await createApiKey(db, name, scope);
        if (opts.json) return printJson(ctx, { ...shown(info), key });
        ctx.stdout.write(`${key}\n`);
        ctx.stderr.write(
          `created ${scope} key ${info.name} (${info.prefix}…); it is shown only now: store it in a secret manager.\n` +
            'use it with: PRECIS_API_KEY=<key> precis --remote <host:port> runs ls\n',
        );
      });
    });

  keys
    .command('ls')
    .alias('list')
    .description('list keys: name, prefix, scope, creation time (never the key)')
    .option('--json', 'print as JSON')
    .action(async (opts: { json?: boolean }, command: Command) => {
      await withDataSource(ctx, command, async (db) => {
        const list = (await listApiKeys(db)).map(shown);
        if (opts.json) return printJson(ctx, list);
        if (list.length === 0)
          return ctx.stdout.write('no API keys; create one with `precis keys create <name>`\n');
        ctx.stdout.write(
          `${formatTable(
            ['NAME', 'PREFIX', 'SCOPE', 'CREATED'],
            list.map((k) => [k.name, k.prefix, k.scope, k.createdAt.replace(/\.\d+Z$/, 'Z')]),
          )}\n`,
        );
      });
    });

  keys
    .command('rm')
    .alias('remove')
    .description('revoke a key: the gateway refuses it within seconds')
    .argument('<name>', 'the key name')
    .action(async (name: string, _opts: unknown, command: Command) => {
      await withDataSource(ctx, command, async (db) => {
        await removeApiKey(db, name);
        ctx.stdout.write(`removed key ${name}\n`);
      });
    });
  return keys;
}
