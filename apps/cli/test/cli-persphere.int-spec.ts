import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { assertBuilt, runCli } from './run-cli.js';

describe('precis run examples/persphere.yaml (built binary, embedded)', () => {
  let home: string;

  beforeAll(async () => {
    assertBuilt();
    home = await mkdtemp(join(tmpdir(), 'precis-cli-persphere-'));
  });

  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  // 185 queries embedded take ~50 s beside another suite on 2 cores: room above Jest's 60 s.
  it('runs offline systems over all 185 queries with no model endpoint', async () => {
    const run = await runCli(
      ['run', 'examples/persphere.yaml', '--systems', 'bm25-10-lead,golden-lead', '--json'],
      {
        PRECIS_HOME: home,
      },
    );
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      run: { status: string };
      sections: {
        family: string;
        rows: {
          system: string;
          samples: number;
          judge: string;
          persphere: { retriever: string; k: number; recall: number; cover: number };
        }[];
      }[];
    };
    expect(report.run.status).toBe('completed');
    const rows = new Map(report.sections.flatMap((s) => s.rows).map((r) => [r.system, r]));
    expect(rows.get('golden-lead')).toMatchObject({
      samples: 185,
      persphere: { retriever: 'golden', recall: 100, cover: 100 },
    });
    // The same Recall@10 as `precis retrieval eval --retriever bm25` (cli-retrieval.int-spec.ts).
    expect(rows.get('bm25-10-lead')!.persphere.recall.toFixed(2)).toBe('73.59');
    expect(rows.get('bm25-10-lead')!.judge).toBe('engine:lexical-perspectives@1 (heuristic)');
    // Without --systems the spec needs the model registry's key: one line, exit 4, nothing run.
    const all = await runCli(['run', 'examples/persphere.yaml'], { PRECIS_HOME: home, OPENAI_API_KEY: '' });
    expect(all.code).toBe(4);
    expect(all.stderr).toContain('OPENAI_API_KEY');
  }, 150_000);
});
