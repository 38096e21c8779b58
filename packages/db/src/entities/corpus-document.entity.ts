import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { DatasetEntity } from './dataset.entity.js';

// A document of a dataset's retrieval corpus (PerSphere's 4,107 evidence documents, a generic
// corpus's passages). Queries stay in `documents`: runs plan over them; retrievers rank these.
@Entity({ name: 'corpus_documents' })
export class CorpusDocumentEntity {
  @PrimaryColumn({ name: 'dataset_id', type: 'uuid' })
  datasetId!: string;

  @ManyToOne(() => DatasetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'dataset_id' })
  dataset?: Relation<DatasetEntity>;

  @PrimaryColumn({ name: 'external_id', type: 'text' })
  externalId!: string;

  // Order in the source file: the corpus order retrievers break ties by.
  @Column({ type: 'integer' })
  ordinal!: number;

  @Column({ type: 'text', nullable: true })
  title!: string | null;

  @Column({ type: 'text' })
  text!: string;
}
