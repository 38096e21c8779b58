import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { DatasetEntity } from './dataset.entity.js';

// One unit of a dataset (a book, a KGDS sample, a SummEval-OP product, a JSONL record).
// `data` keeps the kind-specific structure (KGDS facts and opinions, rated candidate summaries...).
@Entity({ name: 'documents' })
@Index('uq_documents_dataset_external', ['datasetId', 'externalId'], { unique: true })
export class DocumentEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'dataset_id', type: 'uuid' })
  datasetId!: string;

  @ManyToOne(() => DatasetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'dataset_id' })
  dataset?: Relation<DatasetEntity>;

  @Column({ name: 'external_id', type: 'text' })
  externalId!: string;

  @Column({ type: 'integer' })
  ordinal!: number;

  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ type: 'text' })
  text!: string;

  @Column({ type: 'jsonb', default: {} })
  data!: Record<string, unknown>;

  @Column({ type: 'jsonb', default: {} })
  metadata!: Record<string, unknown>;
}
