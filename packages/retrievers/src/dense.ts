import { pack, unpack } from './packed.js';
import { type Ranking, topKDense } from './ranking.js';

function unit(vector: ArrayLike<number>, into: Float32Array, at: number): void {
  let norm = 0;
  for (let i = 0; i < vector.length; i++) norm += vector[i]! * vector[i]!;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i++) into[at + i] = vector[i]! / norm;
}

// Dense retrieval by cosine similarity over document embeddings (unit-normalized float32 rows);
// documents with a similarity <= 0 are not ranked, as with the lexical retrievers.
export class DenseIndex {
  private readonly all: Int32Array;

  private constructor(
    private readonly ids: readonly string[],
    private readonly vectors: Float32Array,
    readonly dimensions: number,
    readonly model: string,
  ) {
    this.all = Int32Array.from(ids.keys());
  }

  static fromVectors(
    model: string,
    ids: readonly string[],
    vectors: readonly ArrayLike<number>[],
  ): DenseIndex {
    const dims = vectors[0]?.length ?? 0;
    const flat = new Float32Array(ids.length * dims);
    vectors.forEach((v, i) => {
      if (v.length !== dims)
        throw new RangeError(
          `embedding ${i} (document ${ids[i]}) has ${v.length} dimensions, the first has ${dims}`,
        );
      unit(v, flat, i * dims);
    });
    return new DenseIndex(ids, flat, dims, model);
  }

  get size(): number {
    return this.ids.length;
  }

  search(queryVector: ArrayLike<number>, k: number): Ranking {
    if (queryVector.length !== this.dimensions)
      throw new RangeError(
        `the query embedding has ${queryVector.length} dimensions, the index ${this.dimensions}`,
      );
    const q = new Float32Array(this.dimensions);
    unit(queryVector, q, 0);
    const scores = new Float64Array(this.ids.length);
    const d = this.dimensions;
    for (let doc = 0; doc < this.ids.length; doc++) {
      let s = 0;
      for (let i = 0; i < d; i++) s += q[i]! * this.vectors[doc * d + i]!;
      scores[doc] = s;
    }
    return topKDense(this.ids, scores, this.all, k, false);
  }

  serialize(): Uint8Array {
    return pack(
      { kind: 'dense', ids: this.ids, dimensions: this.dimensions, model: this.model },
      { vectors: this.vectors },
    );
  }

  static deserialize(bytes: Uint8Array): DenseIndex {
    const { header, arrays } = unpack<{ kind: string; ids: string[]; dimensions: number; model: string }>(
      bytes,
    );
    if (header.kind !== 'dense') throw new Error(`not a dense index (it holds ${header.kind})`);
    return new DenseIndex(header.ids, arrays.vectors as Float32Array, header.dimensions, header.model);
  }
}
