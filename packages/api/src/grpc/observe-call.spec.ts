import { describe, expect, it } from '@jest/globals';
import { GrpcNotFoundException } from '@nestjs/microservices';
import { BusUnavailableError } from '@precis/bus';
import { MetricsRegistry, type ServiceLogger } from '@precis/service';
import { observeCall } from './observe-call.js';

// What a gRPC caller sees when a call fails: never the server's internal text.
describe('observeCall', () => {
  const logged: Record<string, unknown>[] = [];
  const logger = {
    info: () => {},
    warn: () => {},
    error: (fields: Record<string, unknown>) => logged.push(fields),
  } as unknown as ServiceLogger;
  const deps = { metrics: new MetricsRegistry(), logger };

  async function failure(err: unknown): Promise<{ code: number; message: string }> {
    try {
      await observeCall(deps, 'ListRuns', async () => {
        throw err;
      });
    } catch (e) {
      const error = (e as { getError(): { code: number; message: string } }).getError();
      return { code: error.code, message: error.message };
    }
    throw new Error('expected a failure');
  }

  it('answers INTERNAL with a reference, and logs the real error under that reference', async () => {
    const got = await failure(new Error('relation "runs" does not exist (db.internal:5432)'));
    expect(got.code).toBe(13);
    expect(got.message).toMatch(
      /^ListRuns failed: internal error \(reference [0-9a-f]{8}; the details are in the gateway's log\)$/,
    );
    expect(got.message).not.toContain('db.internal');
    const reference = /reference ([0-9a-f]{8})/.exec(got.message)![1];
    expect(logged.at(-1)).toMatchObject({ method: 'ListRuns', reference });
  });

  it('answers UNAVAILABLE when the database or the bus is down, without their addresses', async () => {
    const db = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' });
    for (const err of [db, new BusUnavailableError('publish to nats://10.0.0.8:4222', 60_000)]) {
      const got = await failure(err);
      expect(got.code).toBe(14);
      expect(got.message).toMatch(
        /^ListRuns: the gateway's database or message bus is unavailable; retry later \(reference [0-9a-f]{8}\)$/,
      );
    }
  });

  it('passes a deliberate gRPC status through unchanged', async () => {
    expect(await failure(new GrpcNotFoundException('no run ffffffff'))).toEqual({
      code: 5,
      message: 'no run ffffffff',
    });
  });
});
