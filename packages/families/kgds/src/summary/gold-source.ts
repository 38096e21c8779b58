import type { SummaryEntity } from '@precis/db';
import {
  insertSourceSummaries,
  type SettledSummary,
  type SystemSource,
  summaryId,
} from '@precis/engine/family';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { type GoldSystemSpec, goldSystemSpec } from '../kgds-spec.js';
import type { KgdsPattern } from '../prompts/kgds.parsers.js';
import { type KgdsSample, loadKgdsSamples } from '../sample.js';
import { renderKgdsSummary } from './summarize-kgds.js';
import type { KgdsParts } from './summary-parts.js';

// The gold reference of a sample: EBS = the gold supporting paragraphs, ABS = the key
// supporting facts joined, AOS = the clear atomic opinions joined.
export function goldParts(sample: KgdsSample, pattern: KgdsPattern): KgdsParts {
  const aos = sample.opinions.join(' ');
  if (pattern === 'ebs-aos') return { pattern, ebs: [...sample.gold], outsideArticle: [], aos };
  return {
    pattern,
    abs: sample.facts
      .filter((f) => f.key)
      .map((f) => f.text)
      .join(' '),
    aos,
  };
}

// Systems with `source: gold` are written as the run's summaries when planning starts.
export const goldSource: SystemSource = {
  source: 'gold',
  schema: goldSystemSpec,
  async planStart(ctx, { runId, spec, docs }, tasksFor) {
    const systems = spec.systems.filter((s) => s.source === 'gold') as unknown as GoldSystemSpec[];
    const rows: QueryDeepPartialEntity<SummaryEntity>[] = [];
    const settled: SettledSummary[] = [];
    let samples: Map<string, KgdsSample>;
    try {
      samples = await loadKgdsSamples(
        ctx.db,
        docs.map((d) => d.id),
      );
    } catch (err) {
      const i = spec.systems.findIndex((s) => s.source === 'gold');
      return {
        expected: 0,
        tasks: [],
        error: `systems[${i}] (source: gold): ${(err as Error).message}; gold systems need kgds datasets`,
      };
    }
    for (const doc of docs) {
      const sample = samples.get(doc.id)!;
      for (const s of systems) {
        const id = summaryId(runId, s.name, doc.id);
        const text = renderKgdsSummary(goldParts(sample, s.pattern));
        rows.push({
          id,
          runId,
          system: s.name,
          documentId: doc.id,
          text,
          finalStep: 'gold',
          producer: 'gold',
        });
        settled.push({ id, system: s.name, documentId: doc.id, text });
      }
    }
    await insertSourceSummaries(ctx.db, rows);
    return { expected: rows.length, tasks: tasksFor(settled), error: null };
  },
};
