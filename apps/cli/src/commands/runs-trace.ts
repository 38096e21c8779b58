import {
  allDocumentCalls,
  type DocumentTrace,
  documentTrace,
  findRun,
  type LedgerCallView,
  renderCalls,
  renderDocumentTrace,
} from '@precis/engine';
import { loadedFamilies } from '@precis/families';
import type { DataSource } from 'typeorm';
import type { CliContext } from '../context.js';
import { printJson } from '../output.js';
import { remoteAccess } from '../runtime/remote-access.js';
import { RemoteTranscripts } from '../runtime/remote-transcripts.js';

export interface TraceOptions {
  trace: string;
  calls?: boolean;
  json?: boolean;
}

// `runs show --trace <document> [--calls]`: the same text (or JSON) from the database and from
// a gateway.
function printTrace(
  ctx: CliContext,
  trace: DocumentTrace,
  calls: LedgerCallView[] | null,
  json: boolean,
): void {
  if (json) {
    printJson(ctx, calls ? { ...trace, calls } : trace);
    return;
  }
  ctx.stdout.write(renderDocumentTrace(trace, loadedFamilies()));
  if (calls) ctx.stdout.write(`\n${renderCalls(calls)}`);
}

export async function showLocalTrace(ctx: CliContext, db: DataSource, ref: string, opts: TraceOptions) {
  const run = await findRun(db, ref);
  const trace = await documentTrace(loadedFamilies(), db, run, opts.trace);
  const calls = opts.calls ? await allDocumentCalls(db, run, trace.document.id) : null;
  printTrace(ctx, trace, calls, opts.json === true);
}

export async function showRemoteTrace(ctx: CliContext, address: string, ref: string, opts: TraceOptions) {
  const remote = new RemoteTranscripts(address, remoteAccess(ctx.env));
  try {
    const trace = await remote.trace(ref, opts.trace);
    const calls = opts.calls ? await remote.calls(ref, trace.document.id) : null;
    printTrace(ctx, trace, calls, opts.json === true);
  } finally {
    remote.close();
  }
}
