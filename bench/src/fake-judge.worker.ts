// The fake judge server for the annotation benchmark, in its own thread so the server's work
// (token counting, JSON) does not compete with the code being measured for the same core.
import { parentPort, workerData } from 'node:worker_threads';
import { type FakeReplyContext, startFakeLlmServer } from '@precis/testing';

function judgeReply(ctx: FakeReplyContext): string {
  const numbers = [...ctx.lastUser.matchAll(/^\[(\d+)\]/gm)].map((m) => Number(m[1]));
  if (numbers.length === 0) return '{"confusing": false}';
  return JSON.stringify(
    Object.fromEntries(
      numbers.map((n) => [
        n,
        n % 7 === 0
          ? { confusing: true, questions: ['Why?'], types: ['causal omission'] }
          : { confusing: false },
      ]),
    ),
  );
}

const { latencyMs, capacity } = workerData as { latencyMs: number; capacity: number };
const server = await startFakeLlmServer({ latencyMs, capacity, rules: [{ reply: judgeReply }] });
parentPort!.postMessage({ type: 'ready', baseURL: server.baseURL });
let mark: ReturnType<typeof performance.eventLoopUtilization> | undefined;
parentPort!.on('message', async (msg: { type: string; since?: number }) => {
  if (msg.type === 'stats') parentPort!.postMessage({ type: 'stats', stats: server.stats() });
  // The server thread's event-loop utilization between a 'mark' and the next 'timeline': how much
  // of the window the fake itself was busy (it shares this machine's cores with what is measured).
  if (msg.type === 'mark') {
    mark = performance.eventLoopUtilization();
    parentPort!.postMessage({ type: 'mark' });
  }
  if (msg.type === 'timeline') {
    // Epoch ms at which requests after `since` came in (sorted), and of the last response sent.
    const since = (msg as { since?: number }).since ?? 0;
    const seen = server.requests().filter((r) => r.receivedAt >= since);
    parentPort!.postMessage({
      type: 'timeline',
      received: seen.map((r) => r.receivedAt).sort((a, b) => a - b),
      lastResponded: Math.max(...seen.map((r) => r.respondedAt ?? 0)),
      utilization: mark ? performance.eventLoopUtilization(mark).utilization : null,
    });
  }
  if (msg.type === 'close') {
    await server.close();
    parentPort!.postMessage({ type: 'closed' });
  }
});
