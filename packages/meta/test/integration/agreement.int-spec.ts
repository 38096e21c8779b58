import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { agreementFromRatingsFile, MetaInputError } from '@precis/meta';

// Ratings files on disk, read through agreementFromRatingsFile as the CLI does.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'precis-meta-agreement-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function ratingsFile(name: string, lines: Record<string, unknown>[]): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
  return path;
}

// Reliability data[coder][unit] -> products of `perProduct` summaries, rows[summary][rater].
function asProducts(data: (number | null)[][], perProduct: number, key = 'fl'): Record<string, unknown>[] {
  const units = data[0]!.length;
  const out: Record<string, unknown>[] = [];
  for (let start = 0; start < units; start += perProduct) {
    const idx = Array.from({ length: Math.min(perProduct, units - start) }, (_, i) => start + i);
    out.push({
      summaries: idx.map((u) => `summary ${u + 1}`),
      [key]: idx.map((u) => data.map((row) => row[u]!)),
    });
  }
  return out;
}

describe('agreementFromRatingsFile', () => {
  it('gives alpha = 1 and perfect pairwise agreement when the raters agree', async () => {
    const path = await ratingsFile('perfect.jsonl', [
      {
        summaries: ['a', 'b', 'c'],
        fl: [
          [1, 1, 1],
          [3, 3, 3],
          [5, 5, 5],
        ],
        co: [
          [2, 2, 2],
          [4, 4, 4],
          [4, 4, 4],
        ],
      },
      {
        summaries: ['d', 'e'],
        fl: [
          [2, 2, 2],
          [4, 4, 4],
        ],
        co: [
          [1, 1, 1],
          [5, 5, 5],
        ],
      },
    ]);
    const r = await agreementFromRatingsFile(path);
    expect(r.raters).toBe(3);
    expect(Object.keys(r.dimensions)).toEqual(['fluency', 'coherence']);
    for (const d of Object.values(r.dimensions)) {
      expect(d!.alpha).toEqual({ interval: 1, ordinal: 1, nominal: 1 });
      for (const p of d!.pairwise) {
        expect(p.rmse).toBe(0);
        expect(p.spearman).toBeCloseTo(1, 12);
        expect(p.kendall).toBeCloseTo(1, 12);
      }
      for (const m of d!.raterVsMean) expect(m.spearman).toBeCloseTo(1, 12);
    }
  });

  it("reproduces Krippendorff's worked example with missing data (4 raters, 12 units)", async () => {
    // "Computing Krippendorff's Alpha-Reliability" (2011), section C: nominal .743,
    // ordinal .815, interval .849.
    const n = null;
    const data = [
      [1, 2, 3, 3, 2, 1, 4, 1, 2, n, n, n],
      [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, n, 3],
      [n, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, n],
      [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, n],
    ];
    const path = await ratingsFile('kripp-2011.jsonl', asProducts(data, 4, 'ac'));
    const r = await agreementFromRatingsFile(path);
    const a = r.dimensions.aspect_coverage!.alpha;
    expect(a.nominal).toBeCloseTo(0.743, 3);
    expect(a.ordinal).toBeCloseTo(0.815, 3);
    expect(a.interval).toBeCloseTo(0.849, 3);
    // Unit 12 has a single rating and is not pairable.
    expect(r.dimensions.aspect_coverage!.units).toBe(11);
    expect(r.dimensions.aspect_coverage!.pairwise).toHaveLength(6);
  });

  it("reproduces Krippendorff's two-coder binary example (nominal alpha .095)", async () => {
    const data = [
      [0, 1, 0, 0, 0, 0, 0, 0, 1, 0],
      [1, 1, 1, 0, 0, 1, 0, 0, 0, 0],
    ];
    const path = await ratingsFile('kripp-binary.jsonl', asProducts(data, 5, 'faithfulness'));
    const r = await agreementFromRatingsFile(path);
    expect(r.dimensions.faithfulness!.alpha.nominal).toBeCloseTo(0.095, 3);
    const pair = r.dimensions.faithfulness!.pairwise[0]!;
    // 4 disagreements out of 10.
    expect(pair.rmse).toBeCloseTo(Math.sqrt(0.4), 12);
  });

  it('names the file and line of a bad row, and reports a missing file', async () => {
    const path = await ratingsFile('bad.jsonl', [
      { summaries: ['a'], fl: [[1, 2]] },
      { summaries: ['a'], fl: [[1]] },
    ]);
    await expect(agreementFromRatingsFile(path)).rejects.toThrow(
      `${path}, line 2, field fl[0]: has 1 ratings`,
    );
    await expect(agreementFromRatingsFile(join(dir, 'missing.jsonl'))).rejects.toThrow(MetaInputError);
  });
});
