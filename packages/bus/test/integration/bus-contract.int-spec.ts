// The same contract suite runs against the real JetStream server and the in-process twin, so
// embedded mode behaves like cluster mode.
import { randomBytes } from 'node:crypto';
import { createInProcessBus, createNatsBus } from '@precis/bus';
import { runBusContractSuite } from './bus-contract-suite.js';

const natsUrl = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

runBusContractSuite('in-process', async () => ({
  bus: createInProcessBus(),
  cleanup: async () => undefined,
}));

runBusContractSuite('NATS JetStream', async () => {
  // A fresh prefix per test: its own streams, durable consumers and subjects.
  const prefix = `bus-contract-${process.pid}-${randomBytes(3).toString('hex')}`;
  const bus = await createNatsBus({ servers: natsUrl, prefix, onError: () => undefined });
  return {
    bus,
    cleanup: async () => {
      const admin = await createNatsBus({ servers: natsUrl, prefix });
      try {
        await admin.deleteStreams();
      } finally {
        await admin.close();
      }
    },
  };
});
