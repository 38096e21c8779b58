import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { DatasetEntity } from './dataset.entity.js';

// A built retrieval index, shared by every process and run: one per (dataset, retriever,
// parameters). `dataset_sha256` is the dataset's content when it was built; a replaced dataset
// no longer matches and the index is rebuilt.
@Entity({ name: 'retrieval_indexes' })
export class RetrievalIndexEntity {
  @PrimaryColumn({ name: 'dataset_id', type: 'uuid' })
  datasetId!: string;

  @ManyToOne(() => DatasetEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'dataset_id' })
  dataset?: Relation<DatasetEntity>;

  // The retriever and its parameters as a canonical string, e.g. 'bm25:k1=0.9,b=0.4,...'.
  @PrimaryColumn({ type: 'text' })
  key!: string;

  @Column({ name: 'dataset_sha256', type: 'text' })
  datasetSha256!: string;

  @Column({ type: 'bytea' })
  data!: Buffer;

  @Column({ type: 'integer' })
  documents!: number;

  @Column({ name: 'build_ms', type: 'integer' })
  buildMs!: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
