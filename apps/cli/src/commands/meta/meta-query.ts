import { checkMetaQuery, type MetaQuery, type MetaResult, runMetaQuery } from '@precis/meta';
import type { Command } from 'commander';
import { type CliContext, type GlobalOptions, withDataSource } from '../../context.js';
import { remoteAccess } from '../../runtime/remote-access.js';
import { RemoteRuns } from '../../runtime/remote-runs.js';

// A meta query on the selected database, or with --remote on the gateway's (GetMetaReport); the
// result is rendered here either way, so both print the same text.
export async function metaQuery(ctx: CliContext, command: Command, q: MetaQuery): Promise<MetaResult> {
  // Bad arguments fail here, before a database is opened or a gateway called.
  checkMetaQuery(q);
  const remote = command.optsWithGlobals<GlobalOptions>().remote;
  if (!remote) return withDataSource(ctx, command, (ds) => runMetaQuery(ds, q));
  const client = new RemoteRuns(remote, remoteAccess(ctx.env));
  try {
    return JSON.parse(await client.meta(JSON.stringify(q))) as MetaResult;
  } finally {
    client.close();
  }
}
