import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { assertBuilt, runCli } from './run-cli.js';

describe('precis run examples/kgds.yaml (built binary, embedded)', () => {
  let home: string;

  beforeAll(async () => {
    assertBuilt();
    home = await mkdtemp(join(tmpdir(), 'precis-cli-kgds-'));
  });

  afterAll(async () => {
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('runs the offline systems on all 100 KGDS samples with no model endpoint', async () => {
    const run = await runCli(['run', 'examples/kgds.yaml', '--systems', 'lead-3,gold', '--json'], {
      PRECIS_HOME: home,
    });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      run: { id: string; status: string };
      sections: {
        title: string;
        rankingMetric: string;
        rows: {
          system: string;
          rank: number;
          rankLabel: string;
          samples: number;
          judge: string;
          kgds: { bsp: unknown; caoRecall: number };
        }[];
      }[];
    };
    expect(report.run.status).toBe('completed');
    const [section] = report.sections;
    expect([section!.title, section!.rankingMetric]).toEqual(['KGDS EBS-AOS', 'kgds:op-gm']);
    // Tested on each sample's own OP_GM over the 100 samples: gold is significantly better.
    expect(section!.rows.map((r) => [r.rankLabel, r.system, r.samples])).toEqual([
      ['1', 'gold', 100],
      ['2', 'lead-3', 100],
    ]);
    expect(section!.rows[0]!.kgds.bsp).toEqual({ precision: 100, recall: 100, f1: 100 });
    expect(section!.rows[0]!.judge).toBe('engine:lexical-overlap@1 (heuristic)');
    // One sample's summaries and every verdict.
    const trace = await runCli(['runs', 'show', report.run.id, '--trace', '3'], { PRECIS_HOME: home });
    expect(trace.code).toBe(0);
    expect(trace.stdout).toContain(
      '\nlead-3 (ebs-aos): 1 step\n  [kgds-summary] kgds-summary (76w) Background paragraphs: 1, 2, 3',
    );
    expect(trace.stdout).toContain('\nverdicts\n\ngold (gold)\n\nBackground paragraphs: ');
    expect(trace.stdout).toMatch(
      /\nopinions +1 +Person1 thinks that \*\*Ethiopia\*\* demonstrated strong dominance/,
    );
    // Without --systems the spec needs the model registry's key: one line, exit 4, nothing run.
    const all = await runCli(['run', 'examples/kgds.yaml'], { PRECIS_HOME: home, OPENAI_API_KEY: '' });
    expect(all.code).toBe(4);
    expect(all.stderr).toContain('OPENAI_API_KEY');
  });
});
