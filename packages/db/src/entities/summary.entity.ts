import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { RunEntity } from './run.entity.js';

// The final summary a system produced for one document in a run. The id is the natural key
// `<run>:<system>:<document>`, so a re-planned or redelivered completion upserts, never duplicates.
@Entity({ name: 'summaries' })
@Index('ix_summaries_run_system', ['runId', 'system'])
export class SummaryEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'run_id', type: 'uuid' })
  runId!: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id' })
  run?: Relation<RunEntity>;

  @Column({ type: 'text' })
  system!: string;

  @Column({ name: 'document_id', type: 'uuid' })
  documentId!: string;

  @Column({ type: 'text' })
  text!: string;

  // Which step produced the final text (e.g. 'h/3/0', 'i/c/41', 'i/clean').
  @Column({ name: 'final_step', type: 'text' })
  finalStep!: string;

  // Model or engine that produced it, e.g. 'model:gpt-4o-mini' or 'engine:textrank@1'.
  @Column({ type: 'text' })
  producer!: string;

  @Column({ type: 'jsonb', default: {} })
  stats!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
