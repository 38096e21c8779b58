import { createHash } from 'node:crypto';
import { GorModelEntity } from '@precis/db';
import type { DataSource } from 'typeorm';
import type { GorWeights } from '../gat/fit.js';
import type { TrainingGraph, TrainingReport } from '../gat/train.js';

// The sha256 of everything training sees: a re-run with the same inputs finds the weights.
export function trainingKey(graphs: readonly TrainingGraph[], options: Record<string, unknown>): string {
  const h = createHash('sha256').update(JSON.stringify(options));
  for (const g of graphs) {
    h.update(`|${g.nodes}|`).update(
      Buffer.from(g.features.buffer, g.features.byteOffset, g.features.byteLength),
    );
    h.update(JSON.stringify(g.edges));
    for (const q of g.queries)
      h.update(Buffer.from(q.embedding.buffer, q.embedding.byteOffset, q.embedding.byteLength)).update(
        JSON.stringify(q.labels),
      );
  }
  return h.digest('hex');
}

export async function loadWeights(
  db: DataSource,
  key: string,
): Promise<{ weights: GorWeights; training: TrainingReport } | null> {
  const row = await db.getRepository(GorModelEntity).findOne({ where: { key } });
  if (!row) return null;
  const values = new Float32Array(
    row.weights.buffer.slice(row.weights.byteOffset, row.weights.byteOffset + row.weights.byteLength),
  );
  let at = 0;
  const weights = row.shapes.map((shape) => {
    const size = shape.reduce((a, b) => a * b, 1);
    const part = Array.from(values.subarray(at, at + size));
    at += size;
    return { shape, values: part };
  });
  return { weights, training: row.training as unknown as TrainingReport };
}

// Two tasks training the same inputs store the same weights: the first row stays.
export async function saveWeights(
  db: DataSource,
  key: string,
  weights: GorWeights,
  training: TrainingReport,
): Promise<void> {
  const values = Float32Array.from(weights.flatMap((w) => w.values));
  await db.query(
    `INSERT INTO gor_models (key, weights, shapes, training) VALUES ($1, $2, $3, $4) ON CONFLICT (key) DO NOTHING`,
    [key, Buffer.from(values.buffer), JSON.stringify(weights.map((w) => w.shape)), JSON.stringify(training)],
  );
}
