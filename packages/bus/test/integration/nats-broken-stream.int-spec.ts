// A stage stream made unusable under a live consumer (deleted, and its subject taken by another
// stream so that it cannot be declared again): publishes and pulls fail, problems() names the
// stage, and both heal by themselves once the obstacle is gone. Real nats-server 2.9.
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { jetstreamManager, RetentionPolicy } from '@nats-io/jetstream';
import { createNatsBus, type NatsBus } from '@precis/bus';
import type { Stage } from '@precis/contracts';
import { waitFor } from './bus-contract-suite.js';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const newPrefix = () => `bus-broken-${process.pid}-${randomBytes(3).toString('hex')}`;

describe('a broken stage stream', () => {
  const buses: NatsBus[] = [];
  const blockers: { bus: NatsBus; name: string }[] = [];
  const errors: string[] = [];
  const open = async () => {
    const bus = await createNatsBus({
      servers: natsUrl,
      prefix: newPrefix(),
      // Short, so the test does not wait the default 20 s.
      failingAfterMs: 1_000,
      onError: (err) => errors.push(String(err)),
    });
    buses.push(bus);
    return bus;
  };
  // Deletes the stage's stream and gives its subject to a stream of another name.
  const block = async (bus: NatsBus, stage: Stage) => {
    const jsm = await jetstreamManager(bus.connection);
    const name = `${bus.names.taskStream(stage)}_BLOCKER`;
    await jsm.streams.delete(bus.names.taskStream(stage));
    await jsm.streams.add({ name, subjects: [bus.names.taskSubject(stage)] });
    blockers.push({ bus, name });
    return {
      stored: async () => (await jsm.streams.info(name)).state.messages,
      remove: () => jsm.streams.delete(name),
    };
  };

  afterEach(async () => {
    for (const { bus, name } of blockers.splice(0))
      await (await jetstreamManager(bus.connection)).streams.delete(name).catch(() => undefined);
    for (const bus of buses.splice(0)) {
      await bus.deleteStreams();
      await bus.close();
    }
    errors.length = 0;
  });

  it('fails publishes and pulls, reports them as problems, and heals once the subject is free', async () => {
    const bus = await open();
    const got: string[] = [];
    await bus.consume('summarize', async (d) => {
      got.push(d.id);
    });
    await bus.enqueue('summarize', { id: 'before', data: 1 });
    await waitFor('the first task', () => got.length === 1);
    expect(bus.problems()).toEqual([]);

    const blocker = await block(bus, 'summarize');
    const stream = bus.names.taskStream('summarize');
    const cannotDeclare =
      `stream ${stream} cannot be declared: another stream already stores "${bus.names.taskSubject('summarize')}" ` +
      '(subjects overlap with an existing stream); remove that stream or that subject from it';
    await expect(bus.enqueue('summarize', { id: 'refused', data: 2 })).rejects.toThrow(cannotDeclare);
    // The publish was refused, not stored by the stream that took the subject.
    expect(await blocker.stored()).toBe(0);

    await waitFor(
      'both operations to be reported',
      () => bus.problems().filter((p) => p.error === cannotDeclare).length === 2,
      30_000,
    );
    expect(
      bus
        .problems()
        .map((p) => p.summary)
        .sort(),
    ).toEqual([
      `summarize queue (stream ${stream}): consuming keeps failing: ${cannotDeclare}`,
      `summarize queue (stream ${stream}): publishing keeps failing: ${cannotDeclare}`,
    ]);
    expect(bus.problems().every((p) => p.stream === stream && p.stage === 'summarize')).toBe(true);
    expect(errors.some((e) => e.includes(`pulling from ${stream} failed`))).toBe(true);

    await blocker.remove();
    // The consumer declares the stream and its durable consumer again by itself.
    await waitFor('the consumer to recover', () => bus.problems().length === 1, 30_000);
    expect(bus.problems().map((p) => p.operation)).toEqual(['publish']);
    await bus.enqueue('summarize', { id: 'after', data: 3 });
    expect(bus.problems()).toEqual([]);
    await waitFor('the task sent after the recovery', () => got.length === 2, 30_000);
    expect(got).toEqual(['before', 'after']);
    // Acked (a work queue drops a message once acked).
    await waitFor('the queue to drain', async () => (await bus.pending('summarize')) === 0);
  }, 90_000);

  it('declares a deleted stream again on the next publish, with no consumer to do it', async () => {
    const bus = await open();
    await bus.enqueue('verify', { id: 'one', data: 1 });
    const jsm = await jetstreamManager(bus.connection);
    await jsm.streams.delete(bus.names.taskStream('verify'));
    await bus.enqueue('verify', { id: 'two', data: 2 });
    expect(await bus.pending('verify')).toBe(1);
    expect(bus.problems()).toEqual([]);
  });

  it('puts back the subject of a same-named stream an operator re-created with another one', async () => {
    const bus = await open();
    await bus.enqueue('verify', { id: 'one', data: 1 });
    const jsm = await jetstreamManager(bus.connection);
    const name = bus.names.taskStream('verify');
    await jsm.streams.delete(name);
    await jsm.streams.add({ name, subjects: [`${name}.elsewhere`], retention: RetentionPolicy.Workqueue });
    await bus.enqueue('verify', { id: 'two', data: 2 });
    expect((await jsm.streams.info(name)).config.subjects).toEqual([bus.names.taskSubject('verify')]);
    expect(await bus.pending('verify')).toBe(1);
  });

  it('reads the queue of a deleted stream by declaring it again', async () => {
    const bus = await open();
    await bus.enqueue('score', { id: 'one', data: 1 });
    await (await jetstreamManager(bus.connection)).streams.delete(bus.names.taskStream('score'));
    expect(await bus.pending('score')).toBe(0);
    const blocker = await block(bus, 'score');
    await expect(bus.pending('score')).rejects.toThrow(/cannot be declared: another stream already stores/);
    await blocker.remove();
    expect(await bus.pending('score')).toBe(0);
  });
});
