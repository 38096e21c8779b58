export { BusHealth, DEFAULT_FAILING_AFTER_MS, DEFAULT_FORGET_AFTER_MS } from './bus-health.js';
export { isBusUnavailableError } from './bus-unavailable.js';
export {
  BusClosedError,
  BusTimeoutError,
  BusUnavailableError,
  GiveUpError,
  NoResponderError,
  RemoteHandlerError,
} from './errors.js';
export { createInProcessBus, InProcessBus, type InProcessBusOptions } from './in-process/in-process-bus.js';
export { createNatsBus, NatsBus, type NatsBusOptions } from './nats/nats-bus.js';
export type { BusConnectionEvent, ReconnectOptions } from './nats/nats-link.js';
export { NatsNames } from './nats/nats-queues.js';
export type {
  BatchHandler,
  BatchOutcome,
  Bus,
  BusData,
  BusOperation,
  BusProblem,
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
export {
  DEFAULT_ACK_WAIT_MS,
  DEFAULT_BACKOFF_MS,
  DEFAULT_MAX_DELIVER,
  DEFAULT_TRANSIENT_BACKOFF_MS,
} from './worker-pool.js';
