import { ChunkEntity } from './chunk.entity.js';
import { DatasetEntity } from './dataset.entity.js';
import { DocumentEntity } from './document.entity.js';
import { LlmCallEntity } from './llm-call.entity.js';
import { RunEntity } from './run.entity.js';
import { TaskEntity } from './task.entity.js';

export type { DatasetKind } from './dataset.entity.js';
export type { RunStatus } from './run.entity.js';
export type { TaskStatus } from './task.entity.js';
export { ChunkEntity, DatasetEntity, DocumentEntity, LlmCallEntity, RunEntity, TaskEntity };

export const ENTITIES = [DatasetEntity, DocumentEntity, ChunkEntity, RunEntity, TaskEntity, LlmCallEntity];
