import type { MigrationInterface } from 'typeorm';
import { InitialSchema1795237505174 } from './1795237505174-InitialSchema.js';
import { RunResults1795237914507 } from './1795237914507-RunResults.js';
import { LedgerCallCount1795247923332 } from './1795247923332-LedgerCallCount.js';
import { RunCounters1795300000000 } from './1795300000000-RunCounters.js';
import { RunCostLimit1795443078893 } from './1795443078893-RunCostLimit.js';
import { ApiKeys1795561958502 } from './1795561958502-ApiKeys.js';
import { ClusterLimits1795583136960 } from './1795583136960-ClusterLimits.js';
import { RetrievalCorpus1795624408046 } from './1795624408046-RetrievalCorpus.js';
import { GorModels1795633982138 } from './1795633982138-GorModels.js';
import { MetricValuePartialIndexes1795645227383 } from './1795645227383-MetricValuePartialIndexes.js';
import { LedgerListCost1795654527752 } from './1795654527752-LedgerListCost.js';
import { CancelledTasks1795784480641 } from './1795784480641-CancelledTasks.js';
import { BusProblems1795785026629 } from './1795785026629-BusProblems.js';
import { LedgerReasoningTokens1795794073662 } from './1795794073662-LedgerReasoningTokens.js';
import { BooookScorePercent1795900000000 } from './1795900000000-BooookScorePercent.js';
import { MetricValueSampleIndexes1795910000000 } from './1795910000000-MetricValueSampleIndexes.js';
import { MetricValueProducerIndex1795920000000 } from './1795920000000-MetricValueProducerIndex.js';
import { ShardedRunCounters1795930000000 } from './1795930000000-ShardedRunCounters.js';
import { LlmBatches1795940000000 } from './1795940000000-LlmBatches.js';
import { BatchedCalls1795950000000 } from './1795950000000-BatchedCalls.js';
import { JudgmentsWithoutRunKey1795960000000 } from './1795960000000-JudgmentsWithoutRunKey.js';

// Every migration, in order. Listed as classes (not a glob) so the same list works from src/ under
// Jest and from dist/ in the built services. Add each new generated migration here.
export const MIGRATIONS: Array<new () => MigrationInterface> = [
  InitialSchema1795237505174,
  RunResults1795237914507,
  LedgerCallCount1795247923332,
  RunCounters1795300000000,
  RunCostLimit1795443078893,
  ApiKeys1795561958502,
  ClusterLimits1795583136960,
  RetrievalCorpus1795624408046,
  GorModels1795633982138,
  MetricValuePartialIndexes1795645227383,
  LedgerListCost1795654527752,
  CancelledTasks1795784480641,
  BusProblems1795785026629,
  LedgerReasoningTokens1795794073662,
  BooookScorePercent1795900000000,
  MetricValueSampleIndexes1795910000000,
  MetricValueProducerIndex1795920000000,
  ShardedRunCounters1795930000000,
  LlmBatches1795940000000,
  BatchedCalls1795950000000,
  JudgmentsWithoutRunKey1795960000000,
];
