import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

// The ledger of model calls (tokens, latency, cost, cache hit, error) and, for successful
// uncached calls, the content-addressed response cache (looked up by cache_key). One row per
// call, except that the cache hits of one n-sample request are one row counting them (`calls`).
@Entity({ name: 'llm_calls' })
@Index('ix_llm_calls_cache_key', ['cacheKey'])
@Index('ix_llm_calls_run', ['runId'])
export class LlmCallEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'run_id', type: 'uuid', nullable: true })
  runId!: string | null;

  @Column({ name: 'task_id', type: 'text', nullable: true })
  taskId!: string | null;

  // Registry name of the model, and the provider's model id it maps to.
  @Column({ type: 'text' })
  model!: string;

  @Column({ name: 'model_id', type: 'text' })
  modelId!: string;

  // chat | embedding
  @Column({ type: 'text' })
  kind!: string;

  // sha256 of model + params + messages + template version.
  @Column({ name: 'cache_key', type: 'text' })
  cacheKey!: string;

  @Column({ name: 'cache_hit', type: 'boolean', default: false })
  cacheHit!: boolean;

  // Sent through a provider's Batch API (issue 39): cost_usd and list_cost_usd are the batch
  // price, online_cost_usd what the call would have cost online (the saving is the difference).
  @Column({ type: 'boolean', default: false })
  batched!: boolean;

  @Column({ name: 'online_cost_usd', type: 'numeric', precision: 20, scale: 10, nullable: true })
  onlineCostUsd!: string | null;

  // The batch (llm_batches) that answered or failed the call; its attempts count the batches
  // it went through (an expired batch sends it again).
  @Column({ name: 'batch_id', type: 'uuid', nullable: true })
  batchId!: string | null;

  @Column({ name: 'template_version', type: 'text', nullable: true })
  templateVersion!: string | null;

  @Column({ type: 'jsonb' })
  request!: Record<string, unknown>;

  // The provider's response body; null when the call failed.
  @Column({ type: 'jsonb', nullable: true })
  response!: Record<string, unknown> | null;

  @Column({ name: 'tokens_in', type: 'integer', default: 0 })
  tokensIn!: number;

  // Completion tokens, reasoning included.
  @Column({ name: 'tokens_out', type: 'integer', default: 0 })
  tokensOut!: number;

  // Prompt tokens served from the provider's prompt cache (priced at pricePer1MCachedInput).
  @Column({ name: 'tokens_cached', type: 'integer', default: 0 })
  tokensCached!: number;

  // Reasoning tokens of the completion (part of tokens_out).
  @Column({ name: 'tokens_reasoning', type: 'integer', default: 0 })
  tokensReasoning!: number;

  // How the request was shaped to its model (e.g. "sampled at the model's fixed temperature 1").
  @Column({ type: 'jsonb', nullable: true })
  notes!: string[] | null;

  @Column({ name: 'latency_ms', type: 'integer', default: 0 })
  latencyMs!: number;

  // Exact decimal: sums over the ledger must not drift.
  @Column({ name: 'cost_usd', type: 'numeric', precision: 20, scale: 10, default: 0 })
  costUsd!: string;

  // What the call costs at its model's prices even when the cache answered it: a leaderboard's
  // cost per system, which must not depend on which of two tasks asked first.
  @Column({ name: 'list_cost_usd', type: 'numeric', precision: 20, scale: 10, default: 0 })
  listCostUsd!: string;

  @Column({ type: 'integer', default: 1 })
  attempts!: number;

  // Calls this row accounts for: 1, or the number of samples of one request answered together
  // from the cache (request.cachedAs then lists their cache keys). Counts sum this column.
  @Column({ type: 'integer', default: 1 })
  calls!: number;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  // sent (the request went out, no answer recorded: counts at its reserved cost_usd), ok, error
  // or cached. A call's row is written 'sent' before its request and settled in place.
  @Column({ type: 'text', default: 'ok' })
  status!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
