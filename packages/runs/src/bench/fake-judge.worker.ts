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
parentPort!.on('message', async (msg: { type: string }) => {
  if (msg.type === 'stats') parentPort!.postMessage({ type: 'stats', stats: server.stats() });
  if (msg.type === 'close') {
    await server.close();
    parentPort!.postMessage({ type: 'closed' });
  }
});
