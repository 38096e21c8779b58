import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { Bus, BusData, ConsumerHandle, Delivery, JsonValue } from '@precis/bus';
import { BusTimeoutError, NoResponderError, RemoteHandlerError } from '@precis/bus';
import { eventSubject, requestSubject } from '@precis/contracts';

export interface BusUnderTest {
  bus: Bus;
  /** Removes whatever the bus created on its backend (streams...). Called after close(). */
  cleanup(): Promise<void>;
}

export async function waitFor(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 15_000) {
  const until = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > until) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** The behaviour every Bus implementation must show; run once per implementation. */
export function runBusContractSuite(name: string, factory: () => Promise<BusUnderTest>): void {
  describe(`Bus contract: ${name}`, () => {
    let sut: BusUnderTest;
    let bus: Bus;
    const handles: ConsumerHandle[] = [];
    // Released at the end of each test so hanging handlers let stop()/close() finish.
    let release = deferred();

    beforeEach(async () => {
      sut = await factory();
      bus = sut.bus;
      release = deferred();
    });

    afterEach(async () => {
      release.resolve();
      await Promise.all(handles.splice(0).map((h) => h.stop()));
      await bus.close();
      await sut.cleanup();
    });

    it('delivers JSON and binary tasks with ids and run ids, acks them, and dedupes task ids', async () => {
      await bus.ensureQueue('summarize');
      await bus.ensureQueue('summarize'); // idempotent
      expect(
        await bus.enqueue('summarize', { id: 't1', runId: 'r1', data: { text: 'hello', n: 1 } }),
      ).toEqual({
        id: 't1',
        duplicate: false,
      });
      expect(
        (await bus.enqueue('summarize', { id: 't1', runId: 'r1', data: { text: 'again' } })).duplicate,
      ).toBe(true);
      await bus.enqueue('summarize', { id: 't2', data: new Uint8Array([1, 2, 3]) });
      const got: Delivery[] = [];
      handles.push(
        await bus.consume('summarize', async (d) => {
          got.push(d);
        }),
      );
      await waitFor('two deliveries', () => got.length === 2);
      await waitFor('queue drained', async () => (await bus.pending('summarize')) === 0);
      const byId = new Map(got.map((d) => [d.id, d]));
      expect(byId.get('t1')).toMatchObject({
        stage: 'summarize',
        runId: 'r1',
        data: { text: 'hello', n: 1 },
      });
      expect(byId.get('t1')?.deliveryCount).toBe(1);
      const bin = byId.get('t2');
      expect(bin).toBeDefined();
      expect(bin!.runId).toBeUndefined();
      expect(bin!.data).toBeInstanceOf(Uint8Array);
      expect([...(bin!.data as Uint8Array)]).toEqual([1, 2, 3]);
    });

    it('redelivers after a handler error (with backoff) until the handler succeeds', async () => {
      await bus.enqueue('verify', { id: 'flaky', data: 'x' });
      const counts: number[] = [];
      handles.push(
        await bus.consume(
          'verify',
          async (d) => {
            counts.push(d.deliveryCount);
            if (d.deliveryCount < 3) throw new Error('transient');
          },
          { backoffMs: [50, 100], maxDeliver: 5, onError: () => undefined },
        ),
      );
      await waitFor('three attempts', () => counts.length === 3);
      await waitFor('queue drained', async () => (await bus.pending('verify')) === 0);
      expect(counts).toEqual([1, 2, 3]);
      expect(await bus.deadLetters('verify')).toEqual([]);
    });

    it('dead-letters a task after maxDeliver failed attempts, with the error', async () => {
      await bus.enqueue('score', { id: 'poison', runId: 'r9', data: { bad: true } });
      await bus.enqueue('score', { id: 'fine', data: { bad: false } });
      const attempts: string[] = [];
      handles.push(
        await bus.consume(
          'score',
          async (d) => {
            attempts.push(d.id);
            if ((d.data as { bad: boolean }).bad) throw new Error(`cannot score ${d.id}`);
          },
          { backoffMs: [10], maxDeliver: 3, onError: () => undefined },
        ),
      );
      await waitFor('a dead letter', async () => (await bus.deadLetters('score')).length === 1);
      await waitFor('queue drained', async () => (await bus.pending('score')) === 0);
      const [dead] = await bus.deadLetters('score');
      expect(dead).toMatchObject({
        stage: 'score',
        id: 'poison',
        runId: 'r9',
        data: { bad: true },
        deliveryCount: 3,
        error: 'cannot score poison',
      });
      expect(attempts.filter((id) => id === 'poison')).toHaveLength(3);
      expect(attempts.filter((id) => id === 'fine')).toHaveLength(1);
    });

    it('redelivers a task whose handler neither acks nor heartbeats within ack-wait', async () => {
      await bus.enqueue('retrieve', { id: 'slow', data: 1 });
      const counts: number[] = [];
      handles.push(
        await bus.consume(
          'retrieve',
          async (d) => {
            counts.push(d.deliveryCount);
            if (d.deliveryCount === 1) await release.promise; // stuck until the test ends
          },
          { ackWaitMs: 500, autoHeartbeat: false, maxInFlight: 2 },
        ),
      );
      await waitFor('redelivery', () => counts.length === 2);
      expect(counts).toEqual([1, 2]);
      await waitFor('queue drained', async () => (await bus.pending('retrieve')) === 0);
    });

    it('keeps a long handler its message with automatic heartbeats', async () => {
      await bus.enqueue('retrieve', { id: 'long', data: 1 });
      const counts: number[] = [];
      let done = false;
      handles.push(
        await bus.consume(
          'retrieve',
          async (d) => {
            counts.push(d.deliveryCount);
            await new Promise((r) => setTimeout(r, 2_000)); // > 2 x ack-wait
            done = true;
          },
          { ackWaitMs: 800, maxInFlight: 2 },
        ),
      );
      await waitFor('handler done', () => done);
      await waitFor('queue drained', async () => (await bus.pending('retrieve')) === 0);
      expect(counts).toEqual([1]);
    });

    it('moves a task to dead letters when its last delivery is never acked (worker gone)', async () => {
      await bus.enqueue('ingest', { id: 'lost', runId: 'r2', data: 'payload' });
      let calls = 0;
      handles.push(
        await bus.consume(
          'ingest',
          async () => {
            calls++;
            await release.promise;
          },
          { ackWaitMs: 400, autoHeartbeat: false, maxDeliver: 2, maxInFlight: 4 },
        ),
      );
      await waitFor('a dead letter', async () => (await bus.deadLetters('ingest')).length === 1);
      const [dead] = await bus.deadLetters('ingest');
      expect(dead).toMatchObject({ id: 'lost', runId: 'r2', data: 'payload', deliveryCount: 2 });
      expect(dead?.error).toMatch(/ack wait expired/);
      expect(calls).toBe(2);
      await waitFor('queue drained', async () => (await bus.pending('ingest')) === 0);
    });

    it('never runs more than maxInFlight handlers at once and processes everything', async () => {
      const n = 40;
      await bus.enqueueMany(
        'summarize',
        Array.from({ length: n }, (_, i) => ({ id: `c${i}`, data: i })),
      );
      let running = 0;
      let peak = 0;
      const seen = new Set<string>();
      handles.push(
        await bus.consume(
          'summarize',
          async (d) => {
            running++;
            peak = Math.max(peak, running);
            await new Promise((r) => setTimeout(r, 5));
            seen.add(d.id);
            running--;
          },
          { maxInFlight: 3 },
        ),
      );
      await waitFor('all processed', () => seen.size === n);
      expect(peak).toBeLessThanOrEqual(3);
      expect(peak).toBeGreaterThan(1);
    });

    it('stop() waits for in-flight handlers, acks them, and leaves the rest queued', async () => {
      await bus.enqueueMany(
        'aggregate',
        Array.from({ length: 10 }, (_, i) => ({ id: `s${i}`, data: i })),
      );
      const started: string[] = [];
      const finished: string[] = [];
      const gate = deferred();
      const handle = await bus.consume(
        'aggregate',
        async (d) => {
          started.push(d.id);
          await gate.promise;
          finished.push(d.id);
        },
        // A message the server sent just as the pull closed is dropped by the NATS client and
        // comes back after ack-wait (30 s by default): 2 s here, so the test sees it back.
        { maxInFlight: 3, ackWaitMs: 2_000 },
      );
      await waitFor('three started', () => started.length === 3);
      let stopped = false;
      const stopping = handle.stop().then(() => {
        stopped = true;
      });
      await new Promise((r) => setTimeout(r, 100));
      expect(stopped).toBe(false); // still waiting for the in-flight handlers
      gate.resolve();
      await stopping;
      expect([...finished].sort()).toEqual([...started].sort());
      expect(started).toHaveLength(3);
      await waitFor('acks applied', async () => (await bus.pending('aggregate')) === 7);
      const later: string[] = [];
      handles.push(
        await bus.consume(
          'aggregate',
          async (d) => {
            later.push(d.id);
          },
          { ackWaitMs: 2_000 },
        ),
      );
      await waitFor('rest processed', () => later.length === 7);
      expect(new Set([...started, ...later]).size).toBe(10);
    });

    it('close() lets in-flight handlers finish first, then refuses further use', async () => {
      await bus.enqueue('score', { id: 'c1', data: 1 });
      const gate = deferred();
      const events: string[] = [];
      await bus.consume('score', async () => {
        events.push('started');
        await gate.promise;
        events.push('finished');
      });
      await waitFor('the handler to start', () => events.length === 1);
      const closing = bus.close().then(() => events.push('closed'));
      await new Promise((r) => setTimeout(r, 100));
      expect(events).toEqual(['started']);
      gate.resolve();
      await closing;
      expect(events).toEqual(['started', 'finished', 'closed']);
      await expect(bus.enqueue('score', { id: 'c2', data: 2 })).rejects.toThrow(
        /bus is closed: cannot enqueue/,
      );
    });

    it('consumeBatch hands over bounded batches, acks them, and retries only failed ids', async () => {
      const n = 60;
      await bus.enqueueMany(
        'verify',
        Array.from({ length: n }, (_, i) => ({ id: `b${i}`, runId: 'rb', data: { i } })),
      );
      const sizes: number[] = [];
      const seen: string[] = [];
      handles.push(
        await bus.consumeBatch(
          'verify',
          async (batch) => {
            sizes.push(batch.length);
            seen.push(...batch.map((d) => d.id));
            const bad = batch.find((d) => d.id === 'b7' && d.deliveryCount === 1);
            return bad ? { failed: [{ id: bad.id, error: new Error('row rejected') }] } : undefined;
          },
          { maxBatch: 16, maxWaitMs: 50, backoffMs: [20], onError: () => undefined },
        ),
      );
      await waitFor('all processed', () => seen.length === n + 1);
      await waitFor('queue drained', async () => (await bus.pending('verify')) === 0);
      expect(Math.max(...sizes)).toBeLessThanOrEqual(16);
      expect(seen.filter((id) => id === 'b7')).toHaveLength(2);
      expect(new Set(seen).size).toBe(n);
    });

    it('answers requests, and names the subject on timeouts, missing responders and handler errors', async () => {
      const echo = requestSubject('test.echo');
      await bus.reply(echo, async (data) => ({ echoed: data as JsonValue }));
      expect(await bus.request(echo, { q: 1 }, { timeoutMs: 2_000 })).toEqual({ echoed: { q: 1 } });

      const silent = requestSubject('test.silent');
      await bus.reply(silent, () => release.promise.then(() => null));
      const timeout = bus.request(silent, 'hi', { timeoutMs: 200 });
      await expect(timeout).rejects.toBeInstanceOf(BusTimeoutError);
      await expect(timeout).rejects.toThrow(/precis\.v1\.rpc\.test\.silent.*200 ms/);

      await expect(
        bus.request(requestSubject('test.nobody'), 1, { timeoutMs: 1_000 }),
      ).rejects.toBeInstanceOf(NoResponderError);

      const failing = requestSubject('test.failing');
      await bus.reply(failing, () => {
        throw new Error('bad input');
      });
      await expect(bus.request(failing, 1, { timeoutMs: 2_000 })).rejects.toThrow(RemoteHandlerError);
      await expect(bus.request(failing, 1, { timeoutMs: 2_000 })).rejects.toThrow(/test\.failing.*bad input/);
    });

    it('fans every event out to every subscriber, in order', async () => {
      const subject = eventSubject('test-progress');
      const a: BusData[] = [];
      const b: BusData[] = [];
      const subA = await bus.subscribe(subject, (d) => {
        a.push(d);
      });
      await bus.subscribe(subject, (d) => {
        b.push(d);
      });
      for (let i = 0; i < 5; i++) await bus.publish(subject, { i });
      await waitFor('both got five', () => a.length === 5 && b.length === 5);
      expect(a).toEqual([0, 1, 2, 3, 4].map((i) => ({ i })));
      expect(b).toEqual(a);
      await subA.unsubscribe();
      await bus.publish(subject, { i: 5 });
      await waitFor('b got six', () => b.length === 6);
      expect(a).toHaveLength(5);
    });
  });
}
