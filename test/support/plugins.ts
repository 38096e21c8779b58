// Summarizer plugins for tests: the example plugin as its own process, and a plugin served in the
// test's process from a given implementation (real gRPC both); and servers that are no plugin.
import { spawn } from 'node:child_process';
import net from 'node:net';
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

// Listens on a free port of 127.0.0.1; resolves to "127.0.0.1:<port>".
export function listenLocal(server: net.Server): Promise<string> {
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () => ok(`127.0.0.1:${(server.address() as net.AddressInfo).port}`)),
  );
}

// Open, but no plugin: answers like a server refusing the protocol, then hangs up.
export function wordsThenHangUp(words: string): net.Server {
  // Reads to the caller's hang-up: a socket left paused never saw it and stayed open in the worker.
  return net.createServer((socket) => socket.resume().end(`EFATAL ${words}\n`));
}

// Listens and counts connection attempts, to show that a refused address was never dialled.
export function connectionCounter(): { server: net.Server; accepted(): number } {
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    socket.destroy();
  });
  return { server, accepted: () => accepted };
}
