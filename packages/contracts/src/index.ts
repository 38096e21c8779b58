// Generated messages and services (precis.v1). Names are unique within the protobuf package,
// and ts-proto runs with exportCommonSymbols=false, so the modules can be re-exported flat.

export * from './codecs.js';
export * from './gen/precis/v1/common.js';
export * from './gen/precis/v1/dataset.js';
export * from './gen/precis/v1/ingestion_service.js';
export * from './gen/precis/v1/key_service.js';
export * from './gen/precis/v1/leaderboard.js';
export * from './gen/precis/v1/result.js';
export * from './gen/precis/v1/run.js';
export * from './gen/precis/v1/run_service.js';
export * from './gen/precis/v1/samples.js';
export * from './gen/precis/v1/summarizer.js';
export * from './gen/precis/v1/task.js';
export * from './gen/precis/v1/transcript.js';
export * from './subjects.js';
