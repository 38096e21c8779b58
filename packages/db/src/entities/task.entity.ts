import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
  UpdateDateColumn,
} from 'typeorm';
import { RunEntity } from './run.entity.js';

// cancelled: its run ended (stopped, cancelled or failed) before the task did; a late result is
// discarded.
// waiting: parked until a provider batch answers its model calls (issue 39); no worker holds it.
export type TaskStatus =
  | 'pending'
  | 'queued'
  | 'running'
  | 'waiting'
  | 'done'
  | 'failed'
  | 'dead'
  | 'cancelled';

// A unit of work of a run. The id is a deterministic natural key (run, stage, unit), so planning
// twice and persisting a redelivered result are both upserts, never duplicates.
@Entity({ name: 'tasks' })
@Index('ix_tasks_run_stage_status', ['runId', 'stage', 'status'])
@Index('ix_tasks_run_unit', ['runId', 'unit'], { where: 'unit IS NOT NULL' })
// Waiting tasks (batch mode) are found per run without reading the run's other tasks.
@Index('ix_tasks_waiting', ['runId'], { where: "status = 'waiting'" })
export class TaskEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'run_id', type: 'uuid', nullable: true })
  runId!: string | null;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id' })
  run?: Relation<RunEntity>;

  // ingest | retrieve | summarize | verify | score | aggregate
  @Column({ type: 'text' })
  stage!: string;

  @Column({ type: 'text' })
  kind!: string;

  // The (system, document) a summarize task works for, `<system>:<document id>`: the planner
  // re-plans a unit from its own tasks only. Null for tasks of other stages.
  @Column({ type: 'text', nullable: true })
  unit!: string | null;

  @Column({ type: 'text', default: 'pending' })
  status!: TaskStatus;

  @Column({ type: 'integer', default: 0 })
  attempts!: number;

  @Column({ type: 'jsonb', default: {} })
  payload!: Record<string, unknown>;

  @Column({ type: 'jsonb', nullable: true })
  result!: Record<string, unknown> | null;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}
