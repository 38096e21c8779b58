import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

// completed: every task succeeded; completed-with-failures: it finished, but some work failed
// (the report says which); failed: the run itself could not go on (bad spec, model unusable,
// scoring failed); stopped: a limit stopped it (cost); interrupted: its process was stopped
// (resumable); cancelled: a user cancelled it.
export const RUN_STATUSES = [
  'pending',
  'running',
  'completed',
  'completed-with-failures',
  'failed',
  'stopped',
  'interrupted',
  'cancelled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

// States from which a run can still make progress (and be resumed).
export const OPEN_RUN_STATUSES: readonly RunStatus[] = ['pending', 'running', 'interrupted'];

@Entity({ name: 'runs' })
export class RunEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', default: 'pending' })
  status!: RunStatus;

  // The validated benchmark spec, as submitted.
  @Column({ type: 'jsonb' })
  spec!: Record<string, unknown>;

  @Column({ name: 'spec_sha256', type: 'text' })
  specSha256!: string;

  @Column({ name: 'cost_limit_usd', type: 'numeric', precision: 20, scale: 10, nullable: true })
  costLimitUsd!: string | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
