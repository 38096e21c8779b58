import { mulberry32 } from '@precis/metrics';
import { EigenvalueDecomposition, Matrix, SingularValueDecomposition } from 'ml-matrix';
import { type AnalyzerOptions, analyze, DEFAULT_ANALYZER } from './analyzer.js';
import { type Ranking, topKDense } from './ranking.js';
import { countTerms, smoothedIdf, tfidfVector } from './tfidf.js';

export interface LsaOptions {
  // The rank r of the truncated SVD, capped at min(documents, terms).
  dimensions: number;
  // Seeds the random test matrix, so an index is the same run to run.
  seed: number;
  analyzer: AnalyzerOptions;
}

export const DEFAULT_LSA: LsaOptions = { dimensions: 100, seed: 42, analyzer: DEFAULT_ANALYZER };

// Randomized range finder of Halko, Martinsson and Tropp (2011), algorithm 4.4: oversampling
// p = 10 and q = 2 power iterations, as scikit-learn's TruncatedSVD.
const OVERSAMPLING = 10;
const POWER_ITERATIONS = 2;
// Gram eigenvalues below this fraction of the largest are rounding noise (a rank-deficient input).
const RANK_TOLERANCE = 1e-13;
// Bound once: a global lookup per call is slow in hot loops inside vm contexts (as Jest's).
const { abs, cos, log, PI, sin, sqrt } = Math;

// A row-major dense matrix.
type Dense = { rows: number; cols: number; data: Float64Array };

// The document-term matrix in compressed sparse rows: row i holds idx/val[ptr[i]..ptr[i + 1]).
type Csr = { rows: number; cols: number; ptr: Int32Array; idx: Int32Array; val: Float64Array };

// Everything a fitted index needs to score; the constructor fits it, deserialize reads it back.
interface LsaModel {
  options: LsaOptions;
  ids: string[];
  vocabulary: Map<string, number>;
  idf: Float64Array;
  singularValues: Float64Array;
  // V_r (terms x r) and the document embeddings A V_r (documents x r).
  basis: Dense;
  embeddings: Dense;
  norms: Float64Array;
}

// Standard normal entries by Box-Muller; 1 - u keeps the logarithm finite.
function gaussian(rows: number, cols: number, seed: number): Dense {
  const next = mulberry32(seed);
  const data = new Float64Array(rows * cols);
  for (let i = 0; i < data.length; i += 2) {
    const radius = sqrt(-2 * log(1 - next()));
    const angle = 2 * PI * next();
    data[i] = radius * cos(angle);
    if (i + 1 < data.length) data[i + 1] = radius * sin(angle);
  }
  return { rows, cols, data };
}

// A X (X: terms x l) or, transposed, Aᵀ X (X: documents x l), never forming A densely.
function sparseTimes(a: Csr, x: Dense, transposed = false): Dense {
  const { ptr, idx, val } = a;
  const { cols: l, data } = x;
  const rows = transposed ? a.cols : a.rows;
  const out = new Float64Array(rows * l);
  for (let i = 0; i < a.rows; i++) {
    for (let p = ptr[i]!; p < ptr[i + 1]!; p++) {
      const v = val[p]!;
      const to = transposed ? idx[p]! * l : i * l;
      const from = transposed ? i * l : idx[p]! * l;
      for (let j = 0; j < l; j++) out[to + j]! += v * data[from + j]!;
    }
  }
  return { rows, cols: l, data: out };
}

// Xᵀ Y for two tall matrices with as many rows; four rows at a time cuts the stores to the
// output fourfold (a row past the end weighs 0). Symmetric: only the upper triangle, mirrored.
function crossProduct(x: Dense, y: Dense, symmetric = false): Dense {
  const { rows, cols: a, data: xd } = x;
  const { cols: b, data: yd } = y;
  const out = new Float64Array(a * b);
  for (let i = 0; i < rows; i += 4) {
    const y0 = i * b;
    const y1 = i + 1 < rows ? y0 + b : y0;
    const y2 = i + 2 < rows ? y1 + b : y1;
    const y3 = i + 3 < rows ? y2 + b : y2;
    for (let p = 0; p < a; p++) {
      const v0 = xd[i * a + p]!;
      const v1 = i + 1 < rows ? xd[(i + 1) * a + p]! : 0;
      const v2 = i + 2 < rows ? xd[(i + 2) * a + p]! : 0;
      const v3 = i + 3 < rows ? xd[(i + 3) * a + p]! : 0;
      const to = p * b;
      for (let q = symmetric ? p : 0; q < b; q++)
        out[to + q]! += v0 * yd[y0 + q]! + v1 * yd[y1 + q]! + v2 * yd[y2 + q]! + v3 * yd[y3 + q]!;
    }
  }
  if (symmetric) for (let p = 0; p < a; p++) for (let q = 0; q < p; q++) out[p * b + q] = out[q * b + p]!;
  return { rows: a, cols: b, data: out };
}

// X M, with M small; four columns of X at a time, as above.
function multiply(x: Dense, m: Dense): Dense {
  const { rows, cols: a, data: xd } = x;
  const { cols: b, data: md } = m;
  const out = new Float64Array(rows * b);
  for (let i = 0; i < rows; i++) {
    const to = i * b;
    for (let p = 0; p < a; p += 4) {
      const m0 = p * b;
      const m1 = p + 1 < a ? m0 + b : m0;
      const m2 = p + 2 < a ? m1 + b : m1;
      const m3 = p + 3 < a ? m2 + b : m2;
      const v0 = xd[i * a + p]!;
      const v1 = p + 1 < a ? xd[i * a + p + 1]! : 0;
      const v2 = p + 2 < a ? xd[i * a + p + 2]! : 0;
      const v3 = p + 3 < a ? xd[i * a + p + 3]! : 0;
      for (let q = 0; q < b; q++)
        out[to + q]! += v0 * md[m0 + q]! + v1 * md[m1 + q]! + v2 * md[m2 + q]! + v3 * md[m3 + q]!;
    }
  }
  return { rows, cols: b, data: out };
}

// Indices of values, largest first (ties in index order).
function descending(values: readonly number[]): number[] {
  return values.map((_, i) => i).sort((i, j) => values[j]! - values[i]! || i - j);
}

// The chosen columns of a small ml-matrix, each divided by its divisor, as a Dense.
function pick(m: Matrix, chosen: readonly number[], divisor: (column: number) => number = () => 1): Dense {
  const data = new Float64Array(m.rows * chosen.length);
  chosen.forEach((e, c) => {
    for (let i = 0; i < m.rows; i++) data[i * chosen.length + c] = m.get(i, e) / divisor(e);
  });
  return { rows: m.rows, cols: chosen.length, data };
}

// One pass of X (W Λ^-1/2) from the eigen-decomposition XᵀX = W Λ Wᵀ; drops null directions.
function orthonormalizePass(x: Dense): Dense {
  const gram = Matrix.from1DArray(x.cols, x.cols, crossProduct(x, x, true).data);
  const evd = new EigenvalueDecomposition(gram, { assumeSymmetric: true });
  const lambda = evd.realEigenvalues;
  const order = descending(lambda);
  const keep = order.filter((i) => lambda[i]! > 0 && lambda[i]! > lambda[order[0]!]! * RANK_TOLERANCE);
  const whitening = pick(evd.eigenvectorMatrix, keep, (e) => sqrt(lambda[e]!));
  return multiply(x, whitening);
}

// An orthonormal basis of the columns of a tall X. ml-matrix's Householder QR takes seconds on
// a terms x l matrix, so the QR is CholeskyQR2-like: two Gram passes, the second restoring
// orthogonality to rounding, each through an l x l eigen-decomposition.
function orthonormalize(x: Dense): Dense {
  return orthonormalizePass(orthonormalizePass(x));
}

// Q with orthonormal columns whose span captures the top of A's column space.
function rangeFinder(a: Csr, l: number, seed: number): Dense {
  let q = orthonormalize(sparseTimes(a, gaussian(a.cols, l, seed)));
  for (let i = 0; i < POWER_ITERATIONS; i++)
    q = orthonormalize(sparseTimes(a, orthonormalize(sparseTimes(a, q, true))));
  return q;
}

// Rank-r SVD of A ≈ U Σ Vᵀ, returning V_r and Σ_r: B = Qᵀ A is factored through Bᵀ = Q̂ C, whose
// small C goes to ml-matrix's SVD (Cᵀ = U_c Σ W_cᵀ gives V = Q̂ W_c).
function truncatedSvd(a: Csr, r: number, seed: number): { basis: Dense; singularValues: Float64Array } {
  const l = Math.min(r + OVERSAMPLING, a.rows, a.cols);
  if (l === 0)
    return {
      basis: { rows: a.cols, cols: 0, data: new Float64Array(0) },
      singularValues: new Float64Array(0),
    };
  const bt = sparseTimes(a, rangeFinder(a, l, seed), true);
  const qh = orthonormalize(bt);
  const c = crossProduct(qh, bt);
  const svd = new SingularValueDecomposition(Matrix.from1DArray(c.rows, c.cols, c.data).transpose());
  const sigma = svd.diagonal;
  const top = descending(sigma).slice(0, Math.min(r, qh.cols));
  const basis = multiply(qh, pick(svd.rightSingularVectors, top));
  fixSigns(basis);
  return { basis, singularValues: Float64Array.from(top, (e) => sigma[e]!) };
}

// Singular vectors are defined up to sign: flip each column so its largest entry is positive
// (the first of equal magnitudes).
function fixSigns(v: Dense): void {
  const { rows, cols, data } = v;
  const top = new Float64Array(cols);
  for (let i = 0; i < rows; i++)
    for (let k = 0; k < cols; k++) if (abs(data[i * cols + k]!) > abs(top[k]!)) top[k] = data[i * cols + k]!;
  for (let i = 0; i < rows; i++)
    for (let k = 0; k < cols; k++) if (top[k]! < 0) data[i * cols + k] = -data[i * cols + k]!;
}

function norm(v: Float64Array): number {
  let s = 0;
  for (const x of v) s += x * x;
  return sqrt(s);
}

function rowNorms(x: Dense): Float64Array {
  return Float64Array.from({ length: x.rows }, (_, i) => norm(x.data.subarray(i * x.cols, (i + 1) * x.cols)));
}

// Terms sorted, their smoothed idf, and the L2-normalized TF-IDF rows of every document.
function documentTermMatrix(
  documents: readonly { id: string; text: string }[],
  analyzer: AnalyzerOptions,
): { matrix: Csr; vocabulary: Map<string, number>; idf: Float64Array } {
  const counts = documents.map((d) => countTerms(analyze(d.text, analyzer)));
  const df = new Map<string, number>();
  for (const tf of counts) for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const terms = [...df.keys()].sort();
  const vocabulary = new Map(terms.map((t, i) => [t, i]));
  const idf = Float64Array.from(terms, (t) => smoothedIdf(documents.length, df.get(t)!));
  const nnz = counts.reduce((n, tf) => n + tf.size, 0);
  const matrix: Csr = {
    rows: documents.length,
    cols: terms.length,
    ptr: new Int32Array(documents.length + 1),
    idx: new Int32Array(nnz),
    val: new Float64Array(nnz),
  };
  let p = 0;
  counts.forEach((tf, i) => {
    for (const [t, w] of tfidfVector(tf, (term) => idf[vocabulary.get(term)!]!)) {
      matrix.idx[p] = vocabulary.get(t)!;
      matrix.val[p++] = w;
    }
    matrix.ptr[i + 1] = p;
  });
  return { matrix, vocabulary, idf };
}

function fit(documents: readonly { id: string; text: string }[], options: LsaOptions): LsaModel {
  if (!Number.isInteger(options.dimensions) || options.dimensions < 1)
    throw new RangeError(`LSA dimensions must be a positive integer, got ${options.dimensions}`);
  if (!Number.isInteger(options.seed))
    throw new RangeError(`LSA seed must be an integer, got ${options.seed}`);
  const { matrix, vocabulary, idf } = documentTermMatrix(documents, options.analyzer);
  const rank = Math.min(options.dimensions, matrix.rows, matrix.cols);
  const { basis, singularValues } = truncatedSvd(matrix, rank, options.seed);
  const embeddings = sparseTimes(matrix, basis);
  const ids = documents.map((d) => d.id);
  return { options, ids, vocabulary, idf, singularValues, basis, embeddings, norms: rowNorms(embeddings) };
}

// Latent semantic analysis (Deerwester et al., 1990): TF-IDF document vectors projected on the
// top r right singular vectors of the document-term matrix, scored by cosine in that space.
export class LsaIndex {
  private model!: LsaModel;

  constructor(documents: readonly { id: string; text: string }[], options: Partial<LsaOptions> = {}) {
    this.model = fit(documents, { ...DEFAULT_LSA, ...options });
  }

  get options(): LsaOptions {
    return this.model.options;
  }

  get size(): number {
    return this.model.ids.length;
  }

  // The effective rank r: at most min(documents, terms), and null directions of A are dropped.
  get dimensions(): number {
    return this.model.basis.cols;
  }

  // Σ_r, largest first.
  get singularValues(): Float64Array {
    return this.model.singularValues.slice();
  }

  // q V_r for the query's TF-IDF vector (terms no document has are ignored).
  embed(query: string): Float64Array {
    return this.project(analyze(query, this.model.options.analyzer));
  }

  private project(terms: readonly string[]): Float64Array {
    const { vocabulary, idf, basis } = this.model;
    const tf = countTerms(terms, (t) => vocabulary.has(t));
    const out = new Float64Array(basis.cols);
    for (const [t, w] of tfidfVector(tf, (term) => idf[vocabulary.get(term)!]!)) {
      const from = vocabulary.get(t)! * basis.cols;
      for (let j = 0; j < basis.cols; j++) out[j]! += w * basis.data[from + j]!;
    }
    return out;
  }

  search(query: string, k: number): Ranking {
    const { ids, embeddings, norms } = this.model;
    const terms = analyze(query, this.model.options.analyzer);
    const q = this.project(terms);
    const qn = norm(q);
    const { cols: r, data } = embeddings;
    const scores = new Float64Array(ids.length);
    const touched: number[] = [];
    for (let doc = 0; doc < ids.length; doc++) {
      if (qn === 0 || norms[doc] === 0) continue;
      let dot = 0;
      for (let j = 0; j < r; j++) dot += q[j]! * data[doc * r + j]!;
      scores[doc] = dot / (qn * norms[doc]!);
      touched.push(doc);
    }
    // Only positive scores rank: documents at a negative cosine are left out.
    return topKDense(ids, scores, touched, k, terms.length === 0);
  }

  serialize(): Uint8Array {
    return encode(this.model);
  }

  static deserialize(bytes: Uint8Array): LsaIndex {
    // The model is read back, not fitted: skip the constructor.
    const index = Object.create(LsaIndex.prototype) as LsaIndex;
    index.model = decode(bytes);
    return index;
  }
}

// A length-prefixed JSON header for the irregular parts, then raw little-endian Float64 arrays:
// compact, readable without a schema, and exact, so a stored index scores bit for bit as built.
const FORMAT = 'precis-lsa/1';

interface Header {
  format: string;
  options: LsaOptions;
  dimensions: number;
  ids: string[];
  vocabulary: string[];
  idf: number[];
}

function encode(m: LsaModel): Uint8Array {
  const header: Header = {
    format: FORMAT,
    options: m.options,
    dimensions: m.basis.cols,
    ids: m.ids,
    vocabulary: [...m.vocabulary.keys()],
    idf: [...m.idf],
  };
  const json = new TextEncoder().encode(JSON.stringify(header));
  const start = Math.ceil((4 + json.length) / 8) * 8;
  const arrays = [m.singularValues, m.basis.data, m.embeddings.data];
  const bytes = new Uint8Array(start + 8 * arrays.reduce((n, a) => n + a.length, 0));
  const view = new DataView(bytes.buffer);
  view.setUint32(0, json.length, true);
  bytes.set(json, 4);
  let offset = start;
  for (const a of arrays)
    for (const x of a) {
      view.setFloat64(offset, x, true);
      offset += 8;
    }
  return bytes;
}

function decode(bytes: Uint8Array): LsaModel {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const length = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + length))) as Header;
  if (header.format !== FORMAT)
    throw new Error(`not an LSA index: format ${header.format}, expected ${FORMAT}`);
  const r = header.dimensions;
  const sizes = [r, header.vocabulary.length * r, header.ids.length * r];
  const start = Math.ceil((4 + length) / 8) * 8;
  if (bytes.byteLength !== start + 8 * sizes.reduce((n, s) => n + s, 0))
    throw new Error(`LSA index of ${bytes.byteLength} bytes does not match its header`);
  let offset = start;
  const [singularValues, basis, embeddings] = sizes.map((size) => {
    const a = Float64Array.from({ length: size }, (_, i) => view.getFloat64(offset + 8 * i, true));
    offset += 8 * size;
    return a;
  }) as [Float64Array, Float64Array, Float64Array];
  const emb = { rows: header.ids.length, cols: r, data: embeddings };
  return {
    options: header.options,
    ids: header.ids,
    vocabulary: new Map(header.vocabulary.map((t, i) => [t, i])),
    idf: Float64Array.from(header.idf),
    singularValues,
    basis: { rows: header.vocabulary.length, cols: r, data: basis },
    embeddings: emb,
    norms: rowNorms(emb),
  };
}
