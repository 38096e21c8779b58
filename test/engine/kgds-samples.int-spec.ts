// KGDS per-summary values: one metric_values row per (system, document, measure), their means
// the leaderboard's figures, re-scoring replacing them, and two runs compared on one of them.
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ChunkEntity, DocumentEntity } from '@precis/db';
import type { KgdsRow } from '@precis/family-kgds';
import {
  bspScore,
  caoRecall,
  loadKgdsSample,
  loadKgdsSamples,
  paragraphRetrievalRatio,
} from '@precis/family-kgds';
import { crossRunLeaderboard, scoreRun } from '../support/precis.js';
import { KGDS_WRITERS, kgdsRules } from './kgds-fake.js';
import { type ExecutedRun, type RunHarness, startRunHarness } from './run-harness.js';

const KGDS = resolve(import.meta.dirname, '../../../shared/datasets/kgds/KGDS.json');
const dataset = (limit: number) => [{ name: 'kgds', kind: 'kgds', path: KGDS, limit }];
const LEXICAL = 'engine:lexical-overlap@1 (heuristic)';
const BSP = 'offline: indices vs gold BSP';
const EBS_MEASURES = [
  'kgds:bsp-f1',
  'kgds:bsp-p',
  'kgds:bsp-r',
  'kgds:cao-r',
  'kgds:op-gm',
  'kgds:paragraph-ratio',
];
const ABS_MEASURES = ['kgds:cao-r', 'kgds:kbsaf-f1', 'kgds:kbsaf-p', 'kgds:kbsaf-r', 'kgds:op-gm'];

type Value = { system: string; document_id: string; metric: string; value: number; produced_by: string };

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('KGDS per-summary values', () => {
  let h: RunHarness;
  let offline: ExecutedRun;

  beforeAll(async () => {
    h = await startRunHarness('kgds_samples', { rules: kgdsRules, models: KGDS_WRITERS });
    offline = await h.execute({
      name: 'kgds-offline',
      datasets: dataset(6),
      systems: [
        { name: 'gold', source: 'gold' },
        { name: 'lead-3', strategy: 'ebs-aos', engine: 'lead', params: { paragraphs: 3 } },
        { name: 'lead-abs', strategy: 'abs-aos', engine: 'lead', params: { paragraphs: 2 } },
      ],
      metrics: [{ name: 'kgds', judge: { engine: 'lexical' } }],
    });
  }, 120_000);

  afterAll(async () => {
    await h?.close();
  });

  const valuesOf = (runId: string): Promise<Value[]> =>
    h.db.query(
      `SELECT system, document_id, metric, value, produced_by FROM metric_values
        WHERE run_id = $1 AND document_id IS NOT NULL ORDER BY system, document_id, metric`,
      [runId],
    );
  // The leaderboard rows as the score task stored them (the system-level metric values).
  const boardOf = async (runId: string): Promise<Map<string, KgdsRow>> => {
    const rows: { system: string; details: KgdsRow }[] = await h.db.query(
      `SELECT system, details FROM metric_values WHERE run_id = $1 AND document_id IS NULL`,
      [runId],
    );
    return new Map(rows.map((r) => [r.system, r.details]));
  };
  const column = (values: Value[], system: string, metric: string) =>
    values.filter((v) => v.system === system && v.metric === metric).map((v) => v.value);

  it("stores each summary's BSP, paragraph ratio, KBSAF, CAO recall and OP_GM, in percent", async () => {
    expect(offline.progress.status).toBe('completed');
    const values = await valuesOf(offline.run.id);
    const metricsOf = (system: string) =>
      [...new Set(values.filter((v) => v.system === system).map((v) => v.metric))].sort();
    expect(metricsOf('gold')).toEqual(EBS_MEASURES);
    expect(metricsOf('lead-3')).toEqual(EBS_MEASURES);
    expect(metricsOf('lead-abs')).toEqual(ABS_MEASURES);
    expect(values).toHaveLength(6 * (2 * EBS_MEASURES.length + ABS_MEASURES.length));
    // The gold reference: every summary 100 on BSP and (lexically) on its own opinions.
    for (const m of ['kgds:bsp-p', 'kgds:bsp-r', 'kgds:bsp-f1', 'kgds:cao-r', 'kgds:op-gm'])
      expect(column(values, 'gold', m)).toEqual([100, 100, 100, 100, 100, 100]);
    // lead-3: each sample's first three paragraphs against its gold BSP, computed here.
    const docs = [...new Set(values.map((v) => v.document_id))];
    for (const doc of docs) {
      const sample = await loadKgdsSample(h.db, doc);
      const article = sample.paragraphs.map((p) => p.index);
      const predicted = article.slice(0, 3);
      const bsp = bspScore({ predicted, gold: sample.gold, article });
      const at = (metric: string) =>
        values.find((v) => v.system === 'lead-3' && v.document_id === doc && v.metric === metric)!;
      expect(at('kgds:bsp-p').value).toBeCloseTo(100 * bsp.precision, 10);
      expect(at('kgds:bsp-r').value).toBeCloseTo(100 * bsp.recall, 10);
      expect(at('kgds:bsp-f1').value).toBeCloseTo(100 * bsp.f1, 10);
      expect(at('kgds:paragraph-ratio').value).toBeCloseTo(
        100 * paragraphRetrievalRatio(predicted, article.length),
        10,
      );
      const cao = at('kgds:cao-r').value / 100;
      expect(at('kgds:op-gm').value).toBeCloseTo(100 * Math.sqrt(bsp.f1 * cao), 10);
      expect([at('kgds:bsp-f1').produced_by, at('kgds:cao-r').produced_by]).toEqual([BSP, LEXICAL]);
    }
  });

  it("averages to the leaderboard's figures (OP_GM: the geometric mean of the averages)", async () => {
    const values = await valuesOf(offline.run.id);
    const board = await boardOf(offline.run.id);
    for (const system of ['gold', 'lead-3']) {
      const k = board.get(system)!.kgds!;
      expect(mean(column(values, system, 'kgds:bsp-p'))).toBeCloseTo(k.bsp!.precision, 10);
      expect(mean(column(values, system, 'kgds:bsp-r'))).toBeCloseTo(k.bsp!.recall, 10);
      expect(mean(column(values, system, 'kgds:bsp-f1'))).toBeCloseTo(k.bsp!.f1, 10);
      expect(mean(column(values, system, 'kgds:paragraph-ratio'))).toBeCloseTo(k.paragraphRatio!, 10);
      expect(mean(column(values, system, 'kgds:cao-r'))).toBeCloseTo(k.caoRecall, 10);
    }
    const abs = board.get('lead-abs')!.kgds!;
    expect(mean(column(values, 'lead-abs', 'kgds:kbsaf-p'))).toBeCloseTo(abs.kbsaf!.precision, 10);
    expect(mean(column(values, 'lead-abs', 'kgds:kbsaf-r'))).toBeCloseTo(abs.kbsaf!.recall, 10);
    expect(mean(column(values, 'lead-abs', 'kgds:kbsaf-f1'))).toBeCloseTo(abs.kbsaf!.f1, 10);
    expect(mean(column(values, 'lead-abs', 'kgds:cao-r'))).toBeCloseTo(abs.caoRecall, 10);
    // OP_GM is not a mean (METHODS.md §2.3): sqrt(mean F1 x mean CAO R) over the same values.
    const lead = board.get('lead-3')!.kgds!;
    const f1 = mean(column(values, 'lead-3', 'kgds:bsp-f1'));
    const cao = mean(column(values, 'lead-3', 'kgds:cao-r'));
    expect(lead.opGm).toBeCloseTo(Math.sqrt(f1 * cao), 10);
    const absGm = Math.sqrt(mean(column(values, 'lead-abs', 'kgds:kbsaf-f1')) * abs.caoRecall);
    expect(abs.opGm).toBeCloseTo(absGm, 10);
  });

  it('replaces its values when the run is scored again', async () => {
    const before = await valuesOf(offline.run.id);
    // A stale value is overwritten in place (upsert on run, system, document and measure).
    await h.db.query(
      `UPDATE metric_values SET value = -1 WHERE run_id = $1 AND system = 'lead-3' AND metric = 'kgds:bsp-f1'`,
      [offline.run.id],
    );
    await scoreRun(offline.ctx, offline.run.id, offline.spec);
    expect(await valuesOf(offline.run.id)).toEqual(before);
  });

  it('names the judge and its template versions on judged values', async () => {
    const r = await h.execute({
      name: 'kgds-models',
      datasets: dataset(3),
      systems: [
        { name: 'ebs', strategy: 'ebs-aos', model: 'writer' },
        { name: 'abs', strategy: 'abs-aos', model: 'writer' },
      ],
      metrics: [{ name: 'kgds', judge: { model: 'judge' } }],
    });
    expect(r.progress.status).toBe('completed');
    const values = await valuesOf(r.run.id);
    const producers = (system: string) =>
      Object.fromEntries(values.filter((v) => v.system === system).map((v) => [v.metric, v.produced_by]));
    expect(producers('ebs')).toEqual({
      'kgds:bsp-f1': BSP,
      'kgds:bsp-p': BSP,
      'kgds:bsp-r': BSP,
      'kgds:paragraph-ratio': BSP,
      'kgds:cao-r': 'model:judge kgds.verify.opinions@1',
      'kgds:op-gm': 'model:judge kgds.verify.opinions@1',
    });
    expect(producers('abs')).toEqual({
      'kgds:kbsaf-f1': 'model:judge kgds.verify.facts@1',
      'kgds:kbsaf-p': 'model:judge kgds.verify.facts@1',
      'kgds:kbsaf-r': 'model:judge kgds.verify.facts@1',
      'kgds:cao-r': 'model:judge kgds.verify.opinions@1',
      'kgds:op-gm': 'model:judge kgds.verify.facts@1 + kgds.verify.opinions@1',
    });
    // The judge says yes to odd-numbered opinions: ceil(n/2)/n of each sample's opinions.
    for (const v of values.filter((x) => x.system === 'ebs' && x.metric === 'kgds:cao-r')) {
      const sample = await loadKgdsSample(h.db, v.document_id);
      expect(v.value).toBeCloseTo(100 * caoRecall(sample.opinions.map((_, i) => i % 2 === 0)).recall, 10);
    }
    const board = await boardOf(r.run.id);
    expect(mean(column(values, 'abs', 'kgds:kbsaf-f1'))).toBeCloseTo(board.get('abs')!.kgds!.kbsaf!.f1, 10);
  });

  it("reads many documents' samples together, as the imported rows hold them", async () => {
    const ids = [...new Set((await valuesOf(offline.run.id)).map((v) => v.document_id))];
    expect(ids).toHaveLength(6);
    const samples = await loadKgdsSamples(h.db, [...ids, ids[0]!]);
    expect([...samples.keys()]).toEqual(ids);
    for (const id of ids) {
      const doc = await h.db.getRepository(DocumentEntity).findOneByOrFail({ id });
      const chunks = await h.db
        .getRepository(ChunkEntity)
        .find({ where: { documentId: id, scheme: 'source' }, order: { ordinal: 'ASC' } });
      const sample = samples.get(id)!;
      expect(sample.externalId).toBe(doc.externalId);
      expect(sample.gold).toEqual((doc.data as { supportingParagraphs: number[] }).supportingParagraphs);
      expect(sample.paragraphs).toEqual(
        chunks.filter((c) => c.kind === 'paragraph').map((c) => ({ index: c.sourceIndex, text: c.text })),
      );
      expect(sample.utterances).toEqual(
        chunks
          .filter((c) => c.kind === 'utterance')
          .map((c) => ({ participant: c.metadata.participant, utterance: c.text })),
      );
      expect(sample.utterances.length).toBeGreaterThan(0);
      expect(await loadKgdsSample(h.db, id)).toEqual(sample);
    }
    const missing = '00000000-0000-4000-8000-000000000000';
    await expect(loadKgdsSamples(h.db, [ids[0]!, missing])).rejects.toThrow(
      `document ${missing} does not exist`,
    );
  });

  it('compares two runs on a per-summary measure, asking which when several are shared', async () => {
    const other = await h.execute({
      name: 'kgds-lead-2',
      datasets: dataset(6),
      systems: [{ name: 'lead-2', strategy: 'ebs-aos', engine: 'lead', params: { paragraphs: 2 } }],
      metrics: [{ name: 'kgds', judge: { engine: 'lexical' } }],
    });
    const runs = [offline.run.id, other.run.id];
    await expect(crossRunLeaderboard(h.db, runs)).rejects.toThrow(
      `the runs share several metrics: choose one with --metric (${EBS_MEASURES.join(', ')})`,
    );
    const board = await crossRunLeaderboard(h.db, runs, { metric: 'kgds:bsp-f1', resamples: 200 });
    expect([board.metric, board.documents]).toEqual(['kgds:bsp-f1', 6]);
    // Only the EBS systems have BSP; the ABS system has no value on this measure.
    expect(board.entries.map((e) => e.system).sort()).toEqual(['gold', 'lead-2', 'lead-3']);
    const boards = new Map([
      [offline.run.id, await boardOf(offline.run.id)],
      [other.run.id, await boardOf(other.run.id)],
    ]);
    for (const e of board.entries) {
      expect(e.mean).toBeCloseTo(boards.get(e.run.id)!.get(e.system)!.kgds!.bsp!.f1, 10);
      expect(e.producedBy).toBe(BSP);
    }
    expect(board.entries[0]!.system).toBe('gold');
  });
});
