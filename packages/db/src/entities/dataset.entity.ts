import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

// A kind its family (or @precis/ingest, for the generic ones) registers.
export type DatasetKind = string;

// One imported corpus. `counts` holds the kind-specific counts reported by `datasets show`.
@Entity({ name: 'datasets' })
export class DatasetEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Index('uq_datasets_name', { unique: true })
  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  kind!: DatasetKind;

  @Column({ name: 'source_path', type: 'text' })
  sourcePath!: string;

  // sha256 of the imported file: the same file under the same name is a no-op.
  @Column({ name: 'source_sha256', type: 'text' })
  sourceSha256!: string;

  @Column({ type: 'jsonb', default: {} })
  counts!: Record<string, number>;

  @Column({ type: 'jsonb', default: {} })
  metadata!: Record<string, unknown>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
