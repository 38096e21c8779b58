export type { CliContext, GlobalOptions } from './context.js';
export { withDataSource, withRuntime } from './context.js';
export { buildProgram, CLI_VERSION, runCli } from './program.js';
export { precisHome } from './runtime/home.js';
export type { DatasetView, ImportOutcome, ImportRequest, IngestionPort } from './runtime/ingestion-port.js';
export { openRuntime, type PrecisRuntime, type RuntimeMode, type RuntimeOptions } from './runtime/runtime.js';
