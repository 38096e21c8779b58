// JetStream-only behaviour that the shared contract suite cannot express.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { jetstreamManager } from '@nats-io/jetstream';
import { headers } from '@nats-io/transport-node';
import { createNatsBus, type Delivery, type NatsBus } from '@precis/bus';
import { waitFor } from './bus-contract-suite.js';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const newPrefix = () => `bus-nats-${process.pid}-${randomBytes(3).toString('hex')}`;

describe('NATS bus specifics', () => {
  const buses: NatsBus[] = [];
  const open = async (prefix = newPrefix()) => {
    const bus = await createNatsBus({ servers: natsUrl, prefix, onError: () => undefined });
    buses.push(bus);
    return bus;
  };

  afterEach(async () => {
    for (const bus of buses.splice(0)) {
      await bus.deleteStreams();
      await bus.close();
    }
  });

  it('moves an undecodable message to dead letters and keeps consuming', async () => {
    const bus = await open();
    await bus.ensureQueue('summarize');
    const h = headers();
    h.set('Precis-Task-Id', 'garbled');
    h.set('Precis-Encoding', 'json');
    await bus.connection.request(bus.names.taskSubject('summarize'), new TextEncoder().encode('{not json'), {
      headers: h,
      timeout: 5_000,
    });
    await bus.enqueue('summarize', { id: 'good', data: { ok: true } });
    const got: Delivery[] = [];
    await bus.consume('summarize', async (d) => {
      got.push(d);
    });
    await waitFor('the good task', () => got.length === 1);
    await waitFor('a dead letter', async () => (await bus.deadLetters('summarize')).length === 1);
    const [dead] = await bus.deadLetters('summarize');
    expect(dead?.id).toBe('garbled');
    expect(dead?.error).toMatch(/undecodable payload/);
    expect(new TextDecoder().decode(dead?.data as Uint8Array)).toBe('{not json');
    expect(got.map((d) => d.id)).toEqual(['good']);
    await waitFor('queue drained', async () => (await bus.pending('summarize')) === 0);
  });

  it('reconfigures the durable consumer when a worker starts with other settings', async () => {
    const bus = await open();
    const first = await bus.consume('score', async () => undefined, { ackWaitMs: 1_000, maxDeliver: 3 });
    await first.stop();
    const second = await bus.consume('score', async () => undefined, { ackWaitMs: 2_500, maxDeliver: 7 });
    const jsm = await jetstreamManager(bus.connection);
    const cfg = (await jsm.consumers.info(bus.names.taskStream('score'), 'workers')).config;
    expect([cfg.ack_wait, cfg.max_deliver]).toEqual([2_500_000_000, 7]);
    await second.stop();
    // Transient failures must not run into the server's limit: it is lifted.
    const third = await bus.consume('score', async () => undefined, {
      maxDeliver: 7,
      isTransient: () => true,
    });
    const lifted = (await jsm.consumers.info(bus.names.taskStream('score'), 'workers')).config;
    expect(lifted.max_deliver).toBe(-1);
    await third.stop();
  });

  it('declares a deleted durable consumer again and keeps consuming', async () => {
    const bus = await open();
    const got: string[] = [];
    await bus.consume('verify', async (d) => {
      got.push(d.id);
    });
    await bus.enqueue('verify', { id: 'before', data: 1 });
    await waitFor('the first task', () => got.length === 1);
    const jsm = await jetstreamManager(bus.connection);
    await jsm.consumers.delete(bus.names.taskStream('verify'), 'workers');
    await bus.enqueue('verify', { id: 'after', data: 2 });
    await waitFor('the task sent after the deletion', () => got.length === 2, 45_000);
    expect(got).toEqual(['before', 'after']);
  });

  it('isolates buses with different prefixes', async () => {
    const a = await open();
    const b = await open();
    await a.enqueue('ingest', { id: 'only-a', data: 1 });
    const seenByB: string[] = [];
    await b.consume('ingest', async (d) => {
      seenByB.push(d.id);
    });
    await b.enqueue('ingest', { id: 'only-b', data: 2 });
    await waitFor('b to get its task', () => seenByB.length === 1);
    expect(seenByB).toEqual(['only-b']);
    expect(await a.pending('ingest')).toBe(1);
  });
});
