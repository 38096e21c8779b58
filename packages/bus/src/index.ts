export { BusClosedError, BusTimeoutError, NoResponderError, RemoteHandlerError } from './errors.js';
export { createInProcessBus, InProcessBus, type InProcessBusOptions } from './in-process/in-process-bus.js';
export { createNatsBus, NatsBus, type NatsBusOptions } from './nats/nats-bus.js';
export { NatsNames } from './nats/nats-queues.js';
export type {
  BatchHandler,
  BatchOutcome,
  Bus,
  BusData,
  ConsumeBatchOptions,
  ConsumeOptions,
  ConsumerHandle,
  DeadLetter,
  Delivery,
  EnqueueManyResult,
  EnqueueResult,
  EventHandler,
  JsonValue,
  QueueOptions,
  ReplyHandler,
  RequestOptions,
  Subscription,
  WorkHandler,
  WorkMessage,
} from './types.js';
export { DEFAULT_ACK_WAIT_MS, DEFAULT_BACKOFF_MS, DEFAULT_MAX_DELIVER } from './worker-pool.js';
