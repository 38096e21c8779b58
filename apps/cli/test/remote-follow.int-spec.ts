// Following a run through a gateway that stays unreachable: the follower keeps trying for its
// reconnect window, says so once, then gives up naming how long (a real gRPC client, no server).
import { describe, expect, it } from '@jest/globals';
import { generateApiKey } from '@precis/db';
import { freePort } from '@precis/testing';
import { insecureAccess } from '../src/runtime/remote-access.js';
import { followRemoteRun, RemoteRuns } from '../src/runtime/remote-runs.js';

describe('followRemoteRun', () => {
  it('tries again while the gateway is unreachable, then gives up after the reconnect window', async () => {
    const address = `127.0.0.1:${await freePort()}`;
    const runs = new RemoteRuns(address, insecureAccess(generateApiKey()));
    const heard: string[] = [];
    const started = Date.now();
    try {
      await expect(
        followRemoteRun(runs, 'f9a083ca', {
          pollMs: 100,
          reconnectMs: 1_000,
          onUnreachable: (m) => heard.push(m),
        }),
      ).rejects.toThrow(
        new RegExp(
          `^cannot reach the gateway at ${address} .*\\(for [12] s; the run goes on in the cluster\\)$`,
        ),
      );
    } finally {
      runs.close();
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(heard).toHaveLength(1);
    expect(heard[0]).toMatch(new RegExp(`^cannot reach the gateway at ${address} .*; trying again$`));
  });
});
