// The graph of records (METHODS.md §5.3), grown one simulated query at a time: nodes 0..C-1 are
// the document's chunks; query i retrieves the top K nodes among the chunks and the responses
// added so far (cosine of the query's embedding to each node's), its response becomes the next
// node, with an edge to every node it was given. Ties keep node order.
export class RecordGraph {
  private readonly vectors: Float32Array[];
  readonly edges: [number, number][] = [];

  constructor(chunks: readonly Float32Array[]) {
    this.vectors = chunks.map((v) => unit(v));
  }

  get nodes(): number {
    return this.vectors.length;
  }

  retrieve(query: Float32Array, k: number): number[] {
    const q = unit(query);
    const scores = this.vectors.map((v) => dot(q, v));
    return [...scores.keys()].sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, k);
  }

  // Adds a response node linked to the nodes its query retrieved; returns its index.
  addResponse(vector: Float32Array, retrieved: readonly number[]): number {
    const id = this.vectors.length;
    const missing = retrieved.find((r) => !Number.isInteger(r) || r < 0 || r >= id);
    if (missing !== undefined)
      throw new RangeError(`node ${missing} does not exist (the graph has ${id} nodes before this response)`);
    this.vectors.push(unit(vector));
    for (const r of retrieved) this.edges.push([id, r]);
    return id;
  }

  // Node features in node order, flat [nodes x dim] (the embedder's vectors, unit length).
  features(): Float32Array {
    const dim = this.vectors[0]?.length ?? 0;
    const out = new Float32Array(this.vectors.length * dim);
    this.vectors.forEach((v, i) => {
      out.set(v, i * dim);
    });
    return out;
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`vectors of ${a.length} and ${b.length} dimensions`);
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

function unit(v: Float32Array): Float32Array {
  const n = Math.sqrt(dot(v, v)) || 1;
  return v.map((x) => x / n);
}
