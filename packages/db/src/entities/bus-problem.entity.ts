import { Column, Entity, PrimaryColumn } from 'typeorm';

// A stage queue that keeps failing in one process (its publishes, pulls or reads), as that
// process reports it every few seconds while it lasts; a run with open tasks on that stage shows
// it. A row not refreshed for a while (its process gone) no longer counts.
@Entity({ name: 'bus_problems' })
export class BusProblemEntity {
  // Which process: "<service>@<host>:<pid>".
  @PrimaryColumn({ type: 'text' })
  reporter!: string;

  @PrimaryColumn({ type: 'text' })
  stage!: string;

  // One line naming the stage, stream, operation and error.
  @Column({ type: 'text' })
  problem!: string;

  // First failure since the operation last worked.
  @Column({ type: 'timestamptz' })
  since!: Date;

  @Column({ name: 'seen_at', type: 'timestamptz', default: () => 'now()' })
  seenAt!: Date;
}
