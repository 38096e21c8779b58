// A NATS server outage: consumers resume, enqueues made during it wait for the server, every
// message is handled exactly once, and the connection reports down then up, once each.
// PRECIS_OUTAGE_MS sets how long the server stays down (default 3 s; the issue measured 30 s);
// PRECIS_OUTAGE_KILL=1 kills the server (SIGKILL) instead of stopping it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import {
  type BusConnectionEvent,
  BusUnavailableError,
  createNatsBus,
  isBusUnavailableError,
  type NatsBus,
  type WorkMessage,
} from '@precis/bus';
import { startThrowawayNats, type ThrowawayNats } from '@precis/testing';
import { waitFor } from './bus-contract-suite.js';

const OUTAGE_MS = Number(process.env.PRECIS_OUTAGE_MS ?? 3_000);
const KILL = process.env.PRECIS_OUTAGE_KILL === '1';
const PER_PHASE = 25;
const prefix = `bus-outage-${process.pid}-${randomBytes(3).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const batch = (phase: string): WorkMessage[] =>
  Array.from({ length: PER_PHASE }, (_, i) => ({ id: `${phase}-${i}`, data: { phase, i } }));

describe('NATS bus across a server outage', () => {
  let nats: ThrowawayNats;
  const buses: NatsBus[] = [];
  const events = new Map<string, BusConnectionEvent['type'][]>();
  const open = async (name: string, unavailableWaitMs = OUTAGE_MS + 30_000) => {
    events.set(name, []);
    const bus = await createNatsBus({
      servers: nats.url,
      prefix,
      name,
      reconnectDelayMs: 50,
      reconnectMaxDelayMs: 500,
      unavailableWaitMs,
      onError: () => undefined,
      onConnectionEvent: (e) => events.get(name)?.push(e.type),
    });
    buses.push(bus);
    return bus;
  };

  beforeAll(async () => {
    nats = await startThrowawayNats();
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await nats.dispose();
  });

  it('handles every message enqueued before, during and after the outage exactly once', async () => {
    const consumer = await open('consumer');
    const publisher = await open('publisher');
    const handled = new Map<string, number>();
    await consumer.consume(
      'summarize',
      async (d) => {
        handled.set(d.id, (handled.get(d.id) ?? 0) + 1);
      },
      { maxInFlight: 8, isTransient: isBusUnavailableError },
    );

    await publisher.enqueueMany('summarize', batch('before'));
    await waitFor('the messages enqueued before the outage', () => handled.size === PER_PHASE);

    await nats.stop({ kill: KILL });
    await waitFor('both buses to see the outage', () => !consumer.isConnected() && !publisher.isConnected());
    let duringSettled = false;
    const during = publisher.enqueueMany('summarize', batch('during')).finally(() => {
      duringSettled = true;
    });
    const impatient = await open('impatient', 300).catch((err: unknown) => err);
    // A bus cannot be created while the server is down: that is a startup error, not a wait.
    expect(impatient).toBeInstanceOf(Error);
    await sleep(OUTAGE_MS);
    expect(duringSettled).toBe(false);
    await nats.start();

    await expect(during).resolves.toEqual({ published: PER_PHASE, duplicates: 0 });
    await waitFor('both buses to reconnect', () => consumer.isConnected() && publisher.isConnected());
    await publisher.enqueueMany('summarize', batch('after'));
    await waitFor('every message', () => handled.size === 3 * PER_PHASE, 30_000);

    // Nothing left unacked or waiting, so no message can come a second time.
    const jsm = await jetstreamManager(publisher.connection);
    await waitFor('all acks', async () => {
      const info = await jsm.consumers.info(publisher.names.taskStream('summarize'), 'workers');
      return info.num_ack_pending === 0 && info.num_pending === 0;
    });
    expect([...handled.values()].every((n) => n === 1)).toBe(true);
    expect([...handled.keys()].sort()).toEqual(
      [...batch('before'), ...batch('during'), ...batch('after')].map((m) => m.id).sort(),
    );
    expect(events.get('consumer')).toEqual(['disconnected', 'reconnected']);
    expect(events.get('publisher')).toEqual(['disconnected', 'reconnected']);
  });

  it('fails an enqueue with BusUnavailableError once its wait for the server is over', async () => {
    const bus = await open('short-wait', 200);
    await bus.ensureQueue('score');
    await nats.stop();
    try {
      await waitFor('the outage', () => !bus.isConnected());
      const err = await bus.enqueue('score', { id: 'late', data: {} }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BusUnavailableError);
      expect(isBusUnavailableError(err)).toBe(true);
      expect((err as Error).message).toMatch(/cannot enqueue late to score: the NATS server was unreachable/);
    } finally {
      await nats.start();
    }
    await waitFor('the reconnect', () => bus.isConnected());
    await expect(bus.enqueue('score', { id: 'in-time', data: {} })).resolves.toEqual({
      id: 'in-time',
      duplicate: false,
    });
  });
});
