// Summarizer plugins for tests: the example plugin as its own process, and a plugin served in the
// test's process from a given implementation (real gRPC both).
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import { type SummarizerServiceServer, SummarizerServiceService } from '@precis/contracts';
import { freePort } from '../../packages/service/test/support/service-process.js';

export interface RunningPlugin {
  address: string;
  // Resolves once the plugin no longer runs (its process exited, its server shut down).
  stop(): Promise<void>;
}

const repo = resolve(import.meta.dirname, '../..');

// examples/plugins/lead-summarizer/server.mjs on a free port, once it says it listens.
export async function startExamplePlugin(): Promise<RunningPlugin> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [resolve(repo, 'examples/plugins/lead-summarizer/server.mjs'), '--port', String(port)],
    { cwd: repo, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((ok, fail) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('listening') && ok());
    child.once('exit', (code) => fail(new Error(`the example plugin exited with ${code}`)));
  });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  return {
    address: `127.0.0.1:${port}`,
    stop: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

export async function serveTestPlugin(impl: SummarizerServiceServer): Promise<RunningPlugin> {
  const server = new Server();
  server.addService(SummarizerServiceService, impl);
  const port = await new Promise<number>((ok, fail) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
      err ? fail(err) : ok(p),
    ),
  );
  return { address: `127.0.0.1:${port}`, stop: async () => server.forceShutdown() };
}
