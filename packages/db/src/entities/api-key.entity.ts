import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type ApiKeyScope = 'read' | 'write';

// A gateway API key, stored as the SHA-256 of the key: the key itself is shown once at creation
// and kept nowhere. `prefix` (the key's first characters) tells keys apart in listings.
@Entity({ name: 'api_keys' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'text', unique: true })
  name!: string;

  @Column({ name: 'key_sha256', type: 'text', unique: true })
  keySha256!: string;

  @Column({ type: 'text' })
  prefix!: string;

  @Column({ type: 'text' })
  scope!: ApiKeyScope;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
