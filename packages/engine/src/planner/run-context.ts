import type { LimiterRegistry } from '@precis/llm';
import type { DataSource } from 'typeorm';
import type { FamilyRegistry } from '../family/family-registry.js';
import type { ChatModel, PrepareDatasetImport, RunEventSink, RunLogger, TaskDispatcher } from '../ports.js';
import type { PluginAddressPolicy } from '../spec/plugin-addresses.js';

// What the planner and the stage handlers need from their host (embedded runtime or a service).
export interface RunContext {
  db: DataSource;
  // The benchmark families this process loaded: their task kinds, strategies, metrics, reports.
  families: FamilyRegistry;
  dispatcher: TaskDispatcher;
  events: RunEventSink;
  // Absent when no model registry is configured: runs that need a model then fail with a clear error.
  chat?: ChatModel;
  // Registry lookups for systems and judges that name a model.
  modelInfo?: (model: string) => { contextWindow: number; modelId: string } | undefined;
  logger: RunLogger;
  // Endpoint limits beyond model calls (summarizer plugins): a service's hold for the whole
  // cluster; absent in embedded runs, where the process's own apply.
  limiters?: LimiterRegistry;
  // A service's PRECIS_PLUGIN_ADDRESSES: plugins elsewhere are refused without connecting, and a
  // plugin's failure is stored without its own words. Absent in embedded runs: any address, in detail.
  pluginAddresses?: PluginAddressPolicy;
  // Imports the datasets a spec gives with a path (createRun); absent, such a spec is refused.
  prepareImport?: PrepareDatasetImport;
}
