// KGDS runs through the engine (PostgreSQL, in-process bus): offline systems verified by the
// lexical verifier, and model systems summarizing and judged through the fake server.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { JudgmentEntity } from '@precis/db';
import { bspScore, caoRecall, type KgdsRow, loadKgdsSample, macroAverage } from '@precis/family-kgds';
import {
  builtInFamilies,
  loadTraceBlocks,
  renderRunReport,
  type SectionJson,
  validateSpec,
} from '../support/precis.js';
import { KGDS_WRITERS, kgdsRules } from './kgds-fake.js';
import { type RunHarness, startRunHarness } from './run-harness.js';

const KGDS = resolve(import.meta.dirname, '../../../shared/datasets/kgds/KGDS.json');
const dataset = (limit: number) => [{ name: 'kgds', kind: 'kgds', path: KGDS, limit }];

describe('KGDS runs', () => {
  let h: RunHarness;

  beforeAll(async () => {
    h = await startRunHarness('kgds_runs', { rules: kgdsRules, models: KGDS_WRITERS });
  });

  afterAll(async () => {
    await h?.close();
  });

  const rowsOf = (r: Awaited<ReturnType<RunHarness['execute']>>) =>
    (JSON.parse(renderRunReport(r.report, 'json')).sections as SectionJson[])
      .filter((s) => s.family === 'kgds')
      .flatMap((s) => s.rows) as unknown as (KgdsRow & { rank: number | null; rankLabel: string })[];

  it('scores the gold reference BSP 100 / 100 / 100 and the lead and ABS systems offline', async () => {
    const r = await h.execute({
      name: 'kgds-offline',
      datasets: dataset(10),
      systems: [
        { name: 'gold', source: 'gold' },
        { name: 'lead-3', strategy: 'ebs-aos', engine: 'lead', params: { paragraphs: 3 } },
        { name: 'lead-abs', strategy: 'abs-aos', engine: 'lead', params: { paragraphs: 2 } },
      ],
      metrics: [{ name: 'kgds', judge: { engine: 'lexical' } }],
    });
    expect(r.progress.status).toBe('completed');
    const rows = rowsOf(r);
    const gold = rows.find((x) => x.system === 'gold')!;
    expect(gold.kgds?.bsp).toEqual({ precision: 100, recall: 100, f1: 100 });
    expect(gold.kgds?.caoRecall).toBe(100);
    expect(gold.judge).toBe('engine:lexical-overlap@1 (heuristic)');
    const abs = rows.find((x) => x.system === 'lead-abs')!;
    expect(abs.kgds?.bsp).toBeNull();
    expect(abs.kgds?.kbsaf?.f1).toBeGreaterThan(0);
    // One stored verdict per fact K ∪ N of each sample.
    const facts = await h.db
      .getRepository(JudgmentEntity)
      .countBy({ runId: r.run.id, metric: 'kgds.0.facts' });
    let expected = 0;
    for (const s of await h.db.query(
      `SELECT document_id FROM summaries WHERE run_id = $1 AND system = 'lead-abs'`,
      [r.run.id],
    ))
      expected += (await loadKgdsSample(h.db, s.document_id)).facts.length;
    expect(facts).toBe(expected);
    expect(rows.find((x) => x.system === 'lead-3')!.samples).toBe(10);
    // One table per pattern, each with its own background metric and ranking.
    expect(rows.map((x) => [x.system, x.rank, x.rankLabel])).toEqual([
      ['gold', 1, '1'],
      ['lead-3', 2, '2'],
      ['lead-abs', 1, '1'],
    ]);
    const md = renderRunReport(r.report, 'md');
    expect(md).toContain(
      '## KGDS EBS-AOS, ranked by OP_GM [kgds.0]\n\n| rank | system | summarizer | OP_GM | BSP P | BSP R | BSP F1 |',
    );
    expect(md).toContain(
      '## KGDS ABS-AOS, ranked by OP_GM [kgds.0]\n\n| rank | system | summarizer | OP_GM | KBSAF P | KBSAF R | KBSAF F1 |',
    );
    expect(md).toContain('| 1 | gold | gold | 100.0 | 100.0 | 100.0 | 100.0 | 100.0–100.0 |');
    // The trace of one sample: each summary, then each of its verdicts.
    const [doc] = await h.db.query(
      `SELECT document_id FROM summaries WHERE run_id = $1 AND system = 'gold' LIMIT 1`,
      [r.run.id],
    );
    const sample = await loadKgdsSample(h.db, doc.document_id);
    const trace = await loadTraceBlocks(builtInFamilies, h.db, r.run, doc.document_id);
    expect(trace.map((b) => b.key)).toEqual([
      'trace.gold.summary',
      'trace.gold',
      'trace.lead-3.summary',
      'trace.lead-3',
      'trace.lead-abs.summary',
      'trace.lead-abs',
    ]);
    expect(trace[0]!.notes![0]).toBe(
      `Background paragraphs: ${sample.gold.join(', ')}\n\nOpinions: ${sample.opinions.join(' ')}`,
    );
    expect(trace[1]!.table!.rows).toHaveLength(sample.opinions.length);
    expect(trace[1]!.table!.rows[0]!.slice(3)).toEqual(['inferred', 'engine:lexical-overlap@1 (heuristic)']);
    expect(trace[5]!.table!.rows).toHaveLength(sample.facts.length + sample.opinions.length);
  });

  it('refuses a strategy that does not fit the dataset kind, naming the path', () => {
    expect(() =>
      validateSpec(builtInFamilies, {
        name: 'x',
        datasets: dataset(1),
        systems: [{ name: 'h', strategy: 'hierarchical', engine: 'lead' }],
        metrics: [{ name: 'kgds', judge: { engine: 'lexical' } }],
      }),
    ).toThrow(
      'systems[0].strategy: strategy "hierarchical" cannot summarize datasets[0] (kgds, kind kgds); it takes text or jsonl datasets',
    );
    expect(() =>
      validateSpec(builtInFamilies, {
        name: 'x',
        datasets: [{ name: 'book', kind: 'text', path: 'b.md' }],
        systems: [{ name: 'e', strategy: 'ebs-aos', engine: 'lead' }],
        metrics: [{ name: 'kgds', judge: { engine: 'lexical' } }],
      }),
    ).toThrow(
      'systems[0].strategy: strategy "ebs-aos" cannot summarize datasets[0] (book, kind text); it takes kgds datasets',
    );
  });

  it('runs model systems: re-asks what does not parse, fails what never parses, stores every verdict', async () => {
    const r = await h.execute({
      name: 'kgds-models',
      datasets: dataset(3),
      systems: [
        { name: 'ebs', strategy: 'ebs-aos', model: 'writer' },
        {
          name: 'ebs-reflect',
          strategy: 'ebs-aos',
          model: 'writer',
          params: { paradigm: 'self-reflection' },
        },
        { name: 'abs', strategy: 'abs-aos', model: 'writer' },
        { name: 'flaky', strategy: 'ebs-aos', model: 'writer-flaky' },
        { name: 'strings', strategy: 'ebs-aos', model: 'writer-strings' },
        { name: 'refuses', strategy: 'ebs-aos', model: 'writer-refuses' },
      ],
      metrics: [{ name: 'kgds', judge: { model: 'judge' } }],
    });
    expect(r.progress.status).toBe('completed-with-failures');
    const rows = rowsOf(r);
    const row = (name: string) => rows.find((x) => x.system === name)!;
    expect(row('strings').kgds).toBeNull();
    expect(row('strings').status).toBe('failed: 3 of 3 summaries failed');
    expect(row('refuses').status).toBe('failed: 3 of 3 summaries failed');
    const [failure] = await h.db.query(
      `SELECT error FROM tasks WHERE run_id = $1 AND id LIKE '%:summarize:strings:%' LIMIT 1`,
      [r.run.id],
    );
    expect(failure.error).toMatch(
      /^model writer-strings gave no parseable ebs-aos answer in 3 attempts; last: kgds\.summary\.ebs-aos: background_paragraphs\[0\] is "\d+", not an integer paragraph index$/,
    );
    // The flaky writer's broken first answer was asked again: its row is complete.
    expect(row('flaky').status).toBe('complete');
    expect(row('flaky').kgds?.bsp).toEqual(row('ebs').kgds?.bsp);
    expect(row('flaky').kgds?.caoRecall).toBe(row('ebs').kgds?.caoRecall);
    // Index 999 is not in any article: left out of B, so precision counts only real paragraphs.
    const docs: { document_id: string }[] = await h.db.query(
      `SELECT document_id FROM summaries WHERE run_id = $1 AND system = 'ebs' ORDER BY document_id`,
      [r.run.id],
    );
    const samples = await Promise.all(docs.map((s) => loadKgdsSample(h.db, s.document_id)));
    const bsp = samples.map((s) =>
      bspScore({
        predicted: s.paragraphs.slice(0, 2).map((p) => p.index),
        gold: s.gold,
        article: s.paragraphs.map((p) => p.index),
      }),
    );
    expect(row('ebs').kgds?.bsp?.precision).toBeCloseTo(100 * macroAverage(bsp.map((b) => b.precision)), 10);
    expect(row('ebs').kgds?.bsp?.f1).toBeCloseTo(100 * macroAverage(bsp.map((b) => b.f1)), 10);
    // The judge says yes to odd-numbered opinions: CAO recall is ceil(n/2)/n per sample.
    const cao = samples.map((s) => caoRecall(s.opinions.map((_, i) => i % 2 === 0)).recall);
    expect(row('ebs').kgds?.caoRecall).toBeCloseTo(100 * macroAverage(cao), 10);
    expect(row('ebs').kgds?.errorTypes).toEqual({ OFI: 0, OSD: 0, IRU: 100, IRIC: 0, OM: 0 });
    expect(row('ebs').kgds?.kbsaf).toBeNull();
    // The abs facts: the first list of each paragraph was miscounted, then re-asked.
    expect(row('abs').kgds?.kbsaf?.recall).toBeGreaterThan(0);
    expect(row('abs').status).toBe('complete');
    const feedback = await h.db
      .getRepository(JudgmentEntity)
      .findBy({ runId: r.run.id, metric: 'kgds.0.feedback', system: 'ebs' });
    expect(feedback.length).toBe(3);
    for (const f of feedback) expect(f.verdict.goldWins).toBe(f.verdict.goldFirst);
    const wins = feedback.filter((f) => f.verdict.goldWins).length;
    expect(row('ebs').kgds?.feedbackGoldWinRate).toBeCloseTo((100 * wins) / 3, 10);
  });
});
