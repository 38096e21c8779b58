import {
  Column,
  CreateDateColumn,
  Entity,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  type Relation,
} from 'typeorm';
import { RunEntity } from './run.entity.js';

// A (system, document) of a run that will have no summary because a task of it failed; written
// once per unit by the planner, and counted as a failed summary.
@Entity({ name: 'run_unit_failures' })
export class RunUnitFailureEntity {
  @PrimaryColumn({ name: 'run_id', type: 'uuid' })
  runId!: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id' })
  run?: Relation<RunEntity>;

  // `<system>:<document id>`, as in tasks.unit.
  @PrimaryColumn({ type: 'text' })
  unit!: string;

  @Column({ name: 'task_id', type: 'text' })
  taskId!: string;

  @Column({ type: 'text', nullable: true })
  error!: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
