import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, type Relation } from 'typeorm';
import { DocumentEntity } from './document.entity.js';

// A piece of a document. scheme 'source' = units given by the source (paragraphs, utterances,
// reviews); other schemes name a chunker and its parameters, e.g. 'sentences:2048:cl100k_base'.
@Entity({ name: 'chunks' })
@Index('uq_chunks_document_scheme_ordinal', ['documentId', 'scheme', 'ordinal'], { unique: true })
export class ChunkEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ name: 'document_id', type: 'uuid' })
  documentId!: string;

  @ManyToOne(() => DocumentEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'document_id' })
  document?: Relation<DocumentEntity>;

  @Column({ type: 'text' })
  scheme!: string;

  // paragraph | utterance | review | chunk
  @Column({ type: 'text' })
  kind!: string;

  @Column({ type: 'integer' })
  ordinal!: number;

  // The index the source gave this unit (KGDS paragraph_index), when it has one.
  @Column({ name: 'source_index', type: 'integer', nullable: true })
  sourceIndex!: number | null;

  @Column({ type: 'text' })
  text!: string;

  @Column({ name: 'token_count', type: 'integer', nullable: true })
  tokenCount!: number | null;

  @Column({ type: 'jsonb', default: {} })
  metadata!: Record<string, unknown>;
}
