import {
  isGeneratedSystem,
  metricCovers,
  metricValueId,
  type RowWork,
  type RunContext,
  retrieveTaskId,
  type ScoringInput,
  summaryDocumentData,
  systemTaskId,
  type TaskResultRow,
  taskResultsByKind,
  upsertBoardRows,
  upsertMetricValues,
} from '@precis/engine/family';
import { RougeScorer } from '@precis/metrics';
import {
  gorSettings,
  isGorSystem,
  pairwiseMetrics,
  type RougeMetricSpec,
  rougeMetrics,
} from '../gor-spec.js';
import { type PairwiseResult, pairwiseTaskIdsOf } from '../metrics/pairwise-task.js';
import type { TrainResult } from '../steps/train-step.js';
import {
  type Criterion,
  type GorPairwise,
  type GorRow,
  type GorSample,
  type GorTraining,
  gorRow,
  winRates,
} from './gor-row.js';

// What the training task stores beside its text (the rankings are in the text only).
type StoredTraining = Omit<TrainResult, 'rankings'>;

export const ROUGE_ENGINE = 'rouge-score (max over references)';

function training(r: StoredTraining | undefined): GorTraining | null {
  if (!r) return null;
  const { graphs, reused, inferenceMs } = r;
  return { graphs, reused, ...r.training, inferenceMs };
}

function pairwiseOf(
  input: ScoringInput,
  tasks: Map<string, TaskResultRow>,
  system: string,
  docs: string[],
): GorPairwise[] {
  return pairwiseMetrics(input.spec)
    .filter((m) => m.metric.baseline !== system && metricCovers(m.metric, system))
    .map((m) => {
      const wins: Record<Criterion, number>[] = [];
      let failed = 0;
      for (const doc of docs) {
        const sides = pairwiseTaskIdsOf(input.runId, system, doc, m.index).map((id) => tasks.get(id));
        const judged = sides.find((t) => t?.status === 'done' && (t.result as PairwiseResult).judged);
        if (judged) wins.push((judged.result as PairwiseResult).wins!);
        else if (sides.some((t) => t && t.status !== 'done')) failed++;
      }
      return {
        baseline: m.metric.baseline,
        judge: `model:${m.metric.judge.model}`,
        pairs: wins.length,
        winRate: winRates(wins),
        failed,
      };
    });
}

function systemRow(
  input: ScoringInput,
  tasks: Map<string, TaskResultRow>,
  references: Map<string, string[]>,
  m: { index: number; metric: RougeMetricSpec },
  system: string,
): { row: GorRow; samples: GorSample[] } {
  const spec = input.spec.systems.find((s) => s.name === system)!;
  const settings = isGeneratedSystem(spec) ? gorSettings(spec) : null;
  const summaries = input.summaries.filter((s) => s.system === system);
  const scorer = new RougeScorer({ types: ['rouge1', 'rouge2', 'rougeL'], useStemmer: m.metric.stemmer });
  const samples: GorSample[] = summaries.map((s) => {
    const best = scorer.scoreMulti(references.get(s.documentId) ?? [''], s.text);
    return {
      order: s.order,
      documentId: s.documentId,
      rouge: {
        rouge1: 100 * best.rouge1!.fmeasure,
        rouge2: 100 * best.rouge2!.fmeasure,
        rougeL: 100 * best.rougeL!.fmeasure,
      },
    };
  });
  const work: RowWork = {
    summaries: { expected: input.runDocuments, failed: input.runDocuments - summaries.length },
    judgments: { expected: 0, failed: 0 },
  };
  const trained = tasks.get(systemTaskId(input.runId, system, 'train'))?.result as StoredTraining | undefined;
  const rank = (doc: string) =>
    tasks.get(retrieveTaskId(input.runId, system, doc, 'rank'))?.result as { ranker?: string } | undefined;
  const row = gorRow(
    {
      system,
      summarizer: spec.model !== undefined ? `model:${spec.model}` : `engine:${spec.engine}`,
      strategy: spec.strategy,
      ranker:
        settings?.strategy === 'context-window'
          ? `first ${settings.contextTokens} tokens`
          : (trained?.ranker ?? rank(summaries[0]?.documentId ?? '')?.ranker ?? ''),
      metric: `rouge.${m.index}`,
      judge: ROUGE_ENGINE,
      training: training(trained),
      pairwise: pairwiseOf(input, tasks, system, [...new Set(summaries.map((s) => s.documentId))]),
    },
    samples,
    work,
    { resamples: input.spec.bootstrap.resamples, seed: input.spec.seed },
  );
  return { row, samples };
}

// Each summary's ROUGE F1 (percent) as per-document metric values, for cross-run leaderboards.
function perDocument(runId: string, system: string, samples: readonly GorSample[]) {
  return samples.flatMap((s) =>
    (['rouge1', 'rouge2', 'rougeL'] as const).map((metric) => ({
      id: metricValueId(runId, system, s.documentId, metric),
      runId,
      system,
      documentId: s.documentId,
      metric,
      value: s.rouge[metric],
      details: {},
      producedBy: ROUGE_ENGINE,
    })),
  );
}

// The GoR leaderboards: one row per system each rouge metric scores, with its training figures
// and its pairwise win rates against each gor-pairwise baseline.
export async function scoreGor(ctx: RunContext, input: ScoringInput): Promise<Record<string, unknown>> {
  const metrics = rougeMetrics(input.spec);
  if (metrics.length === 0) return {};
  const tasks = await taskResultsByKind(ctx.db, input.runId, ['gor-train', 'gor-rank', 'gor-pairwise']);
  const data = await summaryDocumentData(ctx.db, input.summaries);
  const references = new Map(
    [...data].map(([id, d]) => [id, (d as { references?: string[] }).references ?? []]),
  );
  const board: GorRow[] = [];
  const values: ReturnType<typeof perDocument> = [];
  for (const m of metrics)
    for (const s of input.spec.systems.filter(
      (x) => isGorSystem(input.spec, x.name) && metricCovers(m.metric, x.name),
    )) {
      const { row, samples } = systemRow(input, tasks, references, m, s.name);
      board.push(row);
      values.push(...perDocument(input.runId, s.name, samples));
    }
  await upsertMetricValues(ctx.db, values);
  await upsertBoardRows(ctx.db, input.runId, board, (r) => r.rouge?.rougeL ?? null);
  return { gor: board };
}
