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

// A computed metric value: per summary (document set) or per system (document null), with what
// produced it. Leaderboards are read from the system-level rows.
@Entity({ name: 'metric_values' })
@Index('ix_metric_values_run', ['runId', 'metric'])
// A report reads a run's system-level rows, the web page pages through its per-summary rows:
// each has its own partial index, so neither scans the other's (100,000 rows: seconds otherwise).
@Index('ix_metric_values_system_rows', ['runId'], { where: 'document_id IS NULL' })
@Index('ix_metric_values_samples', ['runId', 'system', 'documentId', 'metric'], {
  where: 'document_id IS NOT NULL',
})
// The samples table's filters and sorts (value, a metric by value, a document's values, the
// producer); the migrations order value NULLS FIRST, which TypeORM cannot declare (nor compares).
@Index('ix_metric_values_samples_value', ['runId', 'value', 'system', 'documentId', 'metric'], {
  where: 'document_id IS NOT NULL',
})
@Index('ix_metric_values_samples_metric', ['runId', 'metric', 'value', 'system', 'documentId'], {
  where: 'document_id IS NOT NULL',
})
@Index('ix_metric_values_samples_document', ['runId', 'documentId', 'system', 'metric'], {
  where: 'document_id IS NOT NULL',
})
@Index('ix_metric_values_samples_producer', ['runId', 'producedBy', 'system', 'documentId', 'metric'], {
  where: 'document_id IS NOT NULL',
})
export class MetricValueEntity {
  // `<run>:<system>:<document or '*'>:<metric>`
  @PrimaryColumn({ type: 'text' })
  id!: string;

  @Column({ name: 'run_id', type: 'uuid' })
  runId!: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id' })
  run?: Relation<RunEntity>;

  @Column({ type: 'text' })
  system!: string;

  @Column({ name: 'document_id', type: 'uuid', nullable: true })
  documentId!: string | null;

  @Column({ type: 'text' })
  metric!: string;

  @Column({ type: 'double precision', nullable: true })
  value!: number | null;

  // CI bounds, bootstrap std, error-type distribution, counts...
  @Column({ type: 'jsonb', default: {} })
  details!: Record<string, unknown>;

  // The judge (model or engine) and template version, or the offline computation.
  @Column({ name: 'produced_by', type: 'text' })
  producedBy!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
