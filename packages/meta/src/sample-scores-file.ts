import { readErrorReason, readLocalText } from '@precis/files';
import { type OpinionDimensionId, toOpinionDimensionId } from '@precis/prompts';
import { forEachJsonObjectLine, MetaInputError } from './errors.js';

// One judged summary: the judge's n sampled scores (null = sample failed to parse) and the
// mean human rating of the same summary on the same dimension.
export interface SampleScoresRow {
  product: string;
  system: string;
  dimension: OpinionDimensionId;
  samples: (number | null)[];
  human: number;
  // Optional: who produced the samples (judge model + template version).
  judge?: string;
}

export interface SampleScoresFile {
  file: string;
  rows: SampleScoresRow[];
  judges: string[];
}

export async function readSampleScoresFile(path: string): Promise<SampleScoresFile> {
  let text: string;
  try {
    text = readLocalText(path);
  } catch (err) {
    throw new MetaInputError(`cannot read the sample scores file (${readErrorReason(err)})`, {
      file: path,
    });
  }
  return parseSampleScoresText(path, text);
}

// JSONL: {"product": "product-01", "system": "gpt-4", "dimension": "fluency" | "fl",
//         "samples": [4, 5, null, ...], "human": 4.33, "judge"?: "model@template"}
export function parseSampleScoresText(file: string, text: string): SampleScoresFile {
  const rows: SampleScoresRow[] = [];
  const judges = new Set<string>();
  const seen = new Set<string>();
  forEachJsonObjectLine(
    file,
    text,
    '{"product", "system", "dimension", "samples", "human"}',
    (o, _line, fail) => {
      for (const f of ['product', 'system', 'dimension'] as const) {
        if (typeof o[f] !== 'string' || o[f] === '') fail('must be a non-empty string', f);
      }
      const dimension = toOpinionDimensionId(o.dimension as string);
      if (!dimension) fail(`unknown dimension "${String(o.dimension)}"`, 'dimension');
      if (!Array.isArray(o.samples) || o.samples.length === 0) fail('must be a non-empty array', 'samples');
      const samples = (o.samples as unknown[]).map((v, k) => {
        if (v === null) return null;
        if (typeof v !== 'number' || !Number.isFinite(v)) fail('must be a number or null', `samples[${k}]`);
        return v as number;
      });
      if (typeof o.human !== 'number' || !Number.isFinite(o.human)) {
        fail('must be the mean human rating (a number)', 'human');
      }
      if (o.judge !== undefined) {
        if (typeof o.judge !== 'string') fail('must be a string', 'judge');
        judges.add(o.judge as string);
      }
      const key = `${o.product}\u0000${o.system}\u0000${dimension}`;
      if (seen.has(key)) fail(`duplicate row for product ${o.product}, system ${o.system}, ${dimension}`);
      seen.add(key);
      rows.push({
        product: o.product as string,
        system: o.system as string,
        dimension: dimension!,
        samples,
        human: o.human as number,
        judge: o.judge as string | undefined,
      });
    },
  );
  if (rows.length === 0) throw new MetaInputError('no rows in the sample scores file', { file });
  return { file, rows, judges: [...judges].sort() };
}
