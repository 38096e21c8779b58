import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { RunEntity } from './run.entity.js';

// Running totals of a run, kept by triggers as rows are written (migration RunCounters): per stage
// (its tasks) and keyed 'summaries' (units expected, summarized, failed), each split over shards
// that readers sum (migration ShardedRunCounters). Progress and the planner read these instead of
// counting a run's rows.
@Entity({ name: 'run_counters' })
export class RunCounterEntity {
  @PrimaryColumn({ name: 'run_id', type: 'uuid' })
  runId!: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id' })
  run?: Relation<RunEntity>;

  @PrimaryColumn({ type: 'text' })
  key!: string;

  // hashtext(row id) & 15 of the task or summary counted: concurrent finishes of one run's tasks
  // update different rows instead of queueing on one (kgds-verify, 2 verifiers: lock waits of
  // 5.7 ms per verify task on one row, 0.4 ms sharded).
  @PrimaryColumn({ type: 'smallint', default: 0 })
  shard!: number;

  @Column({ type: 'integer', default: 0 })
  total!: number;

  @Column({ type: 'integer', default: 0 })
  done!: number;

  @Column({ type: 'integer', default: 0 })
  failed!: number;

  // Tasks that ended with their run (stopped or cancelled), neither done nor failed.
  @Column({ type: 'integer', default: 0 })
  cancelled!: number;
}
