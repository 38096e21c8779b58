import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

// Trained GoR weights, shared by every run (METHODS.md §5): keyed by the sha256 of everything the
// training saw (features, edges, queries, labels, model and training options), so a re-run with the
// same inputs reuses them instead of training again.
@Entity({ name: 'gor_models' })
export class GorModelEntity {
  @PrimaryColumn({ type: 'text' })
  key!: string;

  // The weight tensors' float32 values, one after another, and each tensor's shape.
  @Column({ type: 'bytea' })
  weights!: Buffer;

  @Column({ type: 'jsonb' })
  shapes!: number[][];

  // The training report: epochs, steps, lossFirst, lossLast, seconds.
  @Column({ type: 'jsonb' })
  training!: Record<string, number>;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
