import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

// One judge verdict on one unit (a summary sentence for BooookScore). The id is the natural key
// `<summary id>:<metric>:<unit>`. `status` 'failed' records an explicit parse/model failure.
// No foreign key to runs: its check locked the run's row in every finish (see the migration
// JudgmentsWithoutRunKey); deleteRun removes a run's judgments.
@Entity({ name: 'judgments' })
@Index('ix_judgments_run_metric', ['runId', 'metric'])
export class JudgmentEntity {
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'run_id', type: 'uuid' })
  runId!: string;

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
