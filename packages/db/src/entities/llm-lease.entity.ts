import { Column, Entity, PrimaryColumn } from 'typeorm';

// One concurrency slot of a model endpoint, shared by every process of a cluster: a call holds a
// slot while its request is open (holder set, until expires_at); a crashed holder's slot frees
// itself when its lease expires. Rows are created per endpoint on first use.
@Entity({ name: 'llm_slots' })
export class LlmSlotEntity {
  @PrimaryColumn({ type: 'text' })
  endpoint!: string;

  @PrimaryColumn({ type: 'integer' })
  slot!: number;

  @Column({ type: 'text', nullable: true })
  holder!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;
}

// Requests and tokens sent to an endpoint in one clock minute by the whole cluster (the
// requests/tokens per minute limits).
@Entity({ name: 'llm_rate_windows' })
export class LlmRateWindowEntity {
  @PrimaryColumn({ type: 'text' })
  endpoint!: string;

  @PrimaryColumn({ name: 'window_start', type: 'timestamptz' })
  windowStart!: Date;

  @Column({ type: 'integer', default: 0 })
  requests!: number;

  @Column({ type: 'bigint', default: 0 })
  tokens!: string;
}
