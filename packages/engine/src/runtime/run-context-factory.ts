import type { Bus } from '@precis/bus';
import type { LimiterRegistry } from '@precis/llm';
import type { DataSource } from 'typeorm';
import type { FamilyRegistry } from '../family/family-registry.js';
import type { RunContext } from '../planner/run-context.js';
import { type ChatModel, type PrepareDatasetImport, type RunLogger, silentLogger } from '../ports.js';
import type { PluginAddressPolicy } from '../spec/plugin-addresses.js';
import { busDispatcher, busEventSink } from './bus-adapters.js';

export interface ModelLookup {
  models: ReadonlyMap<string, { contextWindow: number; modelId: string }>;
}

export function createRunContext(opts: {
  db: DataSource;
  bus: Bus;
  families: FamilyRegistry;
  chat?: ChatModel;
  registry?: ModelLookup;
  logger?: RunLogger;
  limiters?: LimiterRegistry;
  pluginAddresses?: PluginAddressPolicy;
  // @precis/ingest's prepareImport, for runs whose spec gives dataset files.
  prepareImport?: PrepareDatasetImport;
}): RunContext {
  const registry = opts.registry;
  return {
    db: opts.db,
    families: opts.families,
    dispatcher: busDispatcher(opts.bus),
    events: busEventSink(opts.bus),
    chat: opts.chat,
    modelInfo: registry ? (model) => registry.models.get(model) : undefined,
    logger: opts.logger ?? silentLogger,
    ...(opts.limiters ? { limiters: opts.limiters } : {}),
    ...(opts.pluginAddresses ? { pluginAddresses: opts.pluginAddresses } : {}),
    ...(opts.prepareImport ? { prepareImport: opts.prepareImport } : {}),
  };
}
