import { DocumentEntity } from '@precis/db';
import type { BenchmarkSpec } from '../spec/benchmark-spec.schema.js';
import type { RunContext } from './run-context.js';

// A run's documents without their text: texts are read only to chunk them, a page at a time.
export type RunDocument = Omit<DocumentEntity, 'text'>;

export async function runDocuments(ctx: RunContext, spec: BenchmarkSpec): Promise<RunDocument[]> {
  const docs: RunDocument[] = [];
  for (const d of spec.datasets) {
    const rows = await ctx.db
      .getRepository(DocumentEntity)
      .createQueryBuilder('d')
      .innerJoin('datasets', 'ds', 'ds.id = d.dataset_id')
      .select(['d.id', 'd.datasetId', 'd.externalId', 'd.ordinal', 'd.title', 'd.data', 'd.metadata'])
      .where('ds.name = :name', { name: d.name })
      .orderBy('d.ordinal', 'ASC')
      .getMany();
    let selected = d.documents ? rows.filter((r) => d.documents!.includes(r.externalId)) : rows;
    if (d.limit !== undefined) selected = selected.slice(0, d.limit);
    docs.push(...selected);
  }
  return docs;
}
