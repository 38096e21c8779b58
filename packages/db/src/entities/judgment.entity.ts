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

// One judge verdict on one unit (a summary sentence for BooookScore). The id is the natural key
// `<summary id>:<metric>:<unit>`. `status` 'failed' records an explicit parse/model failure.
@Entity({ name: 'judgments' })
@Index('ix_judgments_run_metric', ['runId', 'metric'])
export class JudgmentEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'run_id', type: 'uuid' })
  runId!: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id' })
  run?: Relation<RunEntity>;

  @Column({ name: 'summary_id', type: 'text' })
  summaryId!: string;

  @Column({ type: 'text' })
  system!: string;

  @Column({ type: 'text' })
  metric!: string;

  @Column({ type: 'integer' })
  unit!: number;

  // ok | failed
  @Column({ type: 'text' })
  status!: string;

  @Column({ type: 'jsonb' })
  verdict!: Record<string, unknown>;

  // Judge model or engine, and the template version used.
  @Column({ type: 'text' })
  judge!: string;

  @Column({ name: 'template_version', type: 'text', nullable: true })
  templateVersion!: string | null;

  @Column({ name: 'task_id', type: 'text' })
  taskId!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
