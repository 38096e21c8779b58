import { ApiKeyEntity } from './api-key.entity.js';
import { BusProblemEntity } from './bus-problem.entity.js';
import { ChunkEntity } from './chunk.entity.js';
import { CorpusDocumentEntity } from './corpus-document.entity.js';
import { DatasetEntity } from './dataset.entity.js';
import { DocumentEntity } from './document.entity.js';
import { GorModelEntity } from './gor-model.entity.js';
import { JudgmentEntity } from './judgment.entity.js';
import { LlmBatchCallEntity, LlmBatchEntity, LlmBatchWaiterEntity } from './llm-batch.entity.js';
import { LlmCallEntity } from './llm-call.entity.js';
import { LlmRateWindowEntity, LlmSlotEntity } from './llm-lease.entity.js';
import { MetricValueEntity } from './metric-value.entity.js';
import { RetrievalIndexEntity } from './retrieval-index.entity.js';
import { RunEntity } from './run.entity.js';
import { RunCostEntity } from './run-cost.entity.js';
import { RunCounterEntity } from './run-counter.entity.js';
import { RunUnitFailureEntity } from './run-unit-failure.entity.js';
import { SummaryEntity } from './summary.entity.js';
import { TaskEntity } from './task.entity.js';

export type { ApiKeyScope } from './api-key.entity.js';
export type { DatasetKind } from './dataset.entity.js';
export { OPEN_RUN_STATUSES, RUN_STATUSES, type RunStatus } from './run.entity.js';
export type { TaskStatus } from './task.entity.js';
export {
  ApiKeyEntity,
  BusProblemEntity,
  ChunkEntity,
  CorpusDocumentEntity,
  DatasetEntity,
  DocumentEntity,
  GorModelEntity,
  JudgmentEntity,
  LlmBatchCallEntity,
  LlmBatchEntity,
  LlmBatchWaiterEntity,
  LlmCallEntity,
  LlmRateWindowEntity,
  LlmSlotEntity,
  MetricValueEntity,
  RetrievalIndexEntity,
  RunCostEntity,
  RunCounterEntity,
  RunEntity,
  RunUnitFailureEntity,
  SummaryEntity,
  TaskEntity,
};

export const ENTITIES = [
  DatasetEntity,
  DocumentEntity,
  GorModelEntity,
  ChunkEntity,
  RunEntity,
  RunCostEntity,
  TaskEntity,
  LlmBatchCallEntity,
  LlmBatchEntity,
  LlmBatchWaiterEntity,
  LlmCallEntity,
  LlmRateWindowEntity,
  LlmSlotEntity,
  SummaryEntity,
  JudgmentEntity,
  MetricValueEntity,
  RunCounterEntity,
  RunUnitFailureEntity,
  ApiKeyEntity,
  CorpusDocumentEntity,
  RetrievalIndexEntity,
  BusProblemEntity,
];
