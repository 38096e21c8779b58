import { Column, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';

// One batch sent (or being sent) to a provider's Batch API for one endpoint. `status` is
// 'preparing' from the moment its calls are taken until the provider's batch id is stored, then
// the provider's (validating, in_progress, finalizing, completed, failed, expired, cancelling,
// cancelled). A batch left 'preparing' by a crash is looked up at the provider by its id (sent as
// metadata) before anything is sent again.
@Entity({ name: 'llm_batches' })
@Index(['endpoint', 'status'])
// Provider ids are unique per provider only (two endpoints may both have a batch_abc).
@Index(['endpoint', 'providerBatchId'], { unique: true })
export class LlmBatchEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  endpoint!: string;

  @Column({ type: 'text' })
  status!: string;

  @Column({ name: 'provider_batch_id', type: 'text', nullable: true })
  providerBatchId!: string | null;

  @Column({ name: 'input_file_id', type: 'text', nullable: true })
  inputFileId!: string | null;

  @Column({ type: 'integer' })
  requests!: number;

  @Column({ type: 'integer', default: 0 })
  completed!: number;

  @Column({ type: 'integer', default: 0 })
  failed!: number;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'submitted_at', type: 'timestamptz', nullable: true })
  submittedAt!: Date | null;

  @Column({ name: 'ended_at', type: 'timestamptz', nullable: true })
  endedAt!: Date | null;
}

// A model call that waits for a batch, once per cache key (calls with the same key share one
// request): 'queued' until a batch takes it, 'submitted' while in one, then 'answered' (the
// answer is in the response cache) or 'failed' (`error`); an expired call is queued again.
@Entity({ name: 'llm_batch_calls' })
@Index(['endpoint', 'status', 'queuedAt'])
// The endpoints with batch work, found without reading the answered calls.
@Index('ix_llm_batch_calls_pending', ['endpoint', 'model'], { where: "status IN ('queued', 'submitted')" })
export class LlmBatchCallEntity {
  @PrimaryColumn({ name: 'cache_key', type: 'text' })
  cacheKey!: string;

  @Column({ type: 'text' })
  endpoint!: string;

  @Column({ type: 'text' })
  model!: string;

  // The request body as it would be sent online.
  @Column({ type: 'jsonb' })
  request!: Record<string, unknown>;

  @Column({ type: 'text', default: 'queued' })
  status!: string;

  // The call's ledger row (llm_calls, 'sent' at the batch price until the batch answers it).
  @Column({ name: 'ledger_id', type: 'uuid', nullable: true })
  ledgerId!: string | null;

  @Column({ name: 'batch_id', type: 'uuid', nullable: true })
  batchId!: string | null;

  // Times the call was in a batch that expired before answering it.
  @Column({ type: 'integer', default: 0 })
  expirations!: number;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'queued_at', type: 'timestamptz', default: () => 'now()' })
  queuedAt!: Date;
}

// A task parked until a batched call is answered (several tasks may wait for one call), or told
// why it failed.
@Entity({ name: 'llm_batch_waiters' })
// A task's waits, found when it parks and when it is queued again.
@Index(['taskId'])
export class LlmBatchWaiterEntity {
  @PrimaryColumn({ name: 'cache_key', type: 'text' })
  cacheKey!: string;

  @PrimaryColumn({ name: 'task_id', type: 'text' })
  taskId!: string;

  @Column({ name: 'run_id', type: 'uuid', nullable: true })
  runId!: string | null;

  // Set when the call failed in its batch: the task reads it when it runs again (and the row goes).
  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @Column({ name: 'http_status', type: 'integer', nullable: true })
  httpStatus!: number | null;

  // The batch expired before answering it, and the model sends such calls online (onExpiry).
  @Column({ type: 'boolean', default: false })
  expired!: boolean;
}
