import {
  API_KEY_SCOPES,
  type ApiKeyInfo,
  type ApiKeyScope,
  createApiKey,
  isApiKeyScope,
  listApiKeys,
  removeApiKey,
} from '@precis/db';
import { Command, Option } from 'commander';
import { type CliContext, type GlobalOptions, withDataSource } from '../context.js';
import { formatTable, printJson } from '../output.js';
import { remoteAccess } from '../runtime/remote-access.js';
import { RemoteKeys } from '../runtime/remote-keys.js';

function shown(k: ApiKeyInfo) {
  return { name: k.name, prefix: k.prefix, scope: k.scope, createdAt: k.createdAt.toISOString() };
}

// The key store a command works on: the database, or a gateway's KeyService with --remote (or
// through `precis serve` on this home).
interface KeyStore {
  create(name: string, scope: ApiKeyScope): Promise<{ key: string; info: ApiKeyInfo }>;
  list(): Promise<ApiKeyInfo[]>;
  remove(name: string): Promise<void>;
}

async function withKeys(
  ctx: CliContext,
  command: Command,
  fn: (keys: KeyStore) => Promise<void>,
): Promise<void> {
  const { remote } = command.optsWithGlobals<GlobalOptions>();
  if (remote) {
    const keys = new RemoteKeys(remote, remoteAccess(ctx.env));
    try {
      return await fn(keys);
    } finally {
      keys.close();
    }
  }
  await withDataSource(ctx, command, (db) =>
    fn({
      create: (name, scope) => createApiKey(db, name, scope),
      list: () => listApiKeys(db),
      remove: (name) => removeApiKey(db, name),
    }),
  );
}

// API keys of a gateway, managed on its database (--database-url or DATABASE_URL) or through it
// with its admin key; the key is printed once, at creation, and only its digest is stored.
export function keysCommand(ctx: CliContext): Command {
  const keys = new Command('keys').description(
    "manage the API keys a gateway accepts (on the gateway's database, or through `precis serve`)",
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
      await withKeys(ctx, command, async (store) => {
        const { key, info } = await store.create(name, scope);
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
      await withKeys(ctx, command, async (store) => {
        const list = (await store.list()).map(shown);
        if (opts.json) return printJson(ctx, list);
        if (list.length === 0)
          return void ctx.stdout.write('no API keys; create one with `precis keys create <name>`\n');
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
      await withKeys(ctx, command, async (store) => {
        await store.remove(name);
        ctx.stdout.write(`removed key ${name}\n`);
      });
    });
  return keys;
}
