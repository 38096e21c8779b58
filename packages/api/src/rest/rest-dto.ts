import { type Dataset, ImportStatus, type Run } from '@precis/contracts';
import { z } from 'zod';
import { fromProtoRunStatus } from '../runs/dto/run.mapper.js';
import { figureDto, reportBlockDto, runHeaderDto } from './page-dto.js';

// The REST API's response shapes: the schemas the OpenAPI document is generated from, and the
// mappers that fill them.
// A run's batch mode (limits.batch): its waiting tasks, gathering calls and provider batches.
const runBatchesDto = z.object({
  waitingTasks: z.number().describe('tasks waiting for provider batches'),
  queuedCalls: z.number().describe('calls gathering for the next batch'),
  batches: z.array(
    z.object({
      id: z.string(),
      providerBatchId: z.string().nullable().describe("the provider's batch id; null while not sent"),
      status: z
        .string()
        .describe(
          'preparing, validating, in_progress, finalizing, completed, failed, expired, cancelling or cancelled',
        ),
      requests: z.number(),
      completed: z.number(),
      failed: z.number(),
      ageSeconds: z.number().describe('since it was created, until it ended'),
      ended: z.boolean(),
    }),
  ),
});

// A run's model calls from the call ledger, repeats after faults included.
const usageDto = z.object({
  calls: z.number(),
  cacheHits: z.number(),
  repeated: z.number().describe('calls asked again by the same task after a fault'),
  tokensIn: z.number(),
  tokensOut: z.number().describe('output tokens, reasoning included'),
  tokensCached: z
    .number()
    .describe("prompt tokens served from the provider's prompt cache (part of tokensIn)"),
  tokensReasoning: z.number().describe('reasoning tokens (part of tokensOut)'),
  batch: z
    .object({
      calls: z.number().describe('calls sent through provider batches (waiting ones included)'),
      costUsd: z.number().describe('what the settled ones cost (the batch price)'),
      savedUsd: z.number().describe('what they would have cost more online'),
      resent: z.number().describe('times a call went into another batch (expired or failed transiently)'),
    })
    .optional()
    .describe("the spec's limits.batch stages: what went through provider batches"),
});

export const runDto = z.object({
  id: z.string().uuid(),
  name: z.string(),
  status: z
    .string()
    .describe(
      'pending, running, completed, completed-with-failures, failed, stopped, interrupted or cancelled',
    ),
  error: z.string().nullable(),
  createdAt: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  taskCounts: z
    .record(z.string(), z.number())
    .describe('done, failed, cancelled, open and per stage "<stage>.<state>" and "<stage>.total"'),
  costUsd: z.number().describe('spent so far: the settled model calls, a figure that never goes down'),
  reservedUsd: z
    .number()
    .describe('reserved by model calls not settled yet (each settles at its real cost, usually lower)'),
  datasets: z.array(z.string()).describe("the spec's dataset names"),
  headline: z
    .object({
      section: z.string().describe("the first leaderboard's key, e.g. booookscore.0"),
      title: z.string(),
      metric: z.string().describe('its ranking column, e.g. BooookScore'),
      system: z.string().describe('the system with the best mean on it'),
      score: z.number().describe("in the leaderboard's units (BooookScore in percent)"),
      higherIsBetter: z.boolean(),
      rankLabel: z.string().describe('its rank as shown, e.g. "=1" when others share it'),
      tiedWith: z.number().int().describe('how many other systems share that rank'),
    })
    .nullable()
    .describe("the run's primary metric and best system; null before it is scored"),
  usage: usageDto.nullable().describe("the run's model calls from the call ledger (GET of one run only)"),
  batches: runBatchesDto.nullable().describe("the provider batches of the run's calls (GET of one run only)"),
  blockedBy: z
    .string()
    .nullable()
    .describe(
      'why the run is not progressing now: its stage queues that keep failing in some service (GET of one run only)',
    ),
});
export const runListDto = z.object({ runs: z.array(runDto), nextPageToken: z.string() });
export const runShowDto = z.object({ run: runDto, spec: z.record(z.string(), z.unknown()) });
export const datasetDto = z.object({
  name: z.string(),
  kind: z.string(),
  counts: z.record(z.string(), z.number()).describe('kind-specific counts: documents, chunks, facts, ...'),
  sourceSha256: z.string(),
  createdAt: z.string().nullable(),
});
export const datasetListDto = z.object({ datasets: z.array(datasetDto), nextPageToken: z.string() });
const workDto = z.object({
  summaries: z.object({ expected: z.number(), failed: z.number() }),
  judgments: z.object({ expected: z.number(), failed: z.number() }),
});
// One leaderboard, in the same shape for every family.
export const sectionDto = z.object({
  key: z.string().describe('unique within the run; names the table in CSV'),
  family: z.string().describe('books, opinion, kgds, persphere or gor'),
  metric: z.string().describe("the spec's metric name"),
  label: z.string().describe('the internal id, e.g. booookscore.0'),
  title: z.string().describe('for people, e.g. "BooookScore (coherence)"'),
  rankingMetric: z.string().describe('the per-document metric the ranks are tested on'),
  rankingColumn: z.string().describe('the column that shows its mean'),
  higherIsBetter: z.boolean(),
  alpha: z.number().describe("significance level after Holm's correction"),
  resamples: z.number(),
  documents: z.number().describe('the most documents two ranked systems share'),
  notes: z.array(z.string()),
  details: z.record(z.string(), z.unknown()).describe("the section's own fields (judge, templates...)"),
  rows: z
    .array(
      z
        .object({
          system: z.string(),
          rank: z.number().nullable().describe('1 + the systems significantly better; null: its work failed'),
          rankLabel: z.string().describe('"1", "=2" for a shared rank, "–" for none'),
          score: z.number().nullable(),
          ciLow: z.number().nullable(),
          ciHigh: z.number().nullable(),
          work: workDto,
          status: z.string(),
          usage: z.object({
            calls: z.number(),
            tokensIn: z.number(),
            tokensOut: z.number(),
            tokensCached: z.number(),
            tokensReasoning: z.number(),
            costUsd: z.number(),
          }),
        })
        .catchall(z.unknown())
        .describe("then the family's own fields"),
    )
    .describe('by mean, best first; rows without a rank last'),
});
export const reportDto = z
  .object({
    run: z.record(z.string(), z.unknown()),
    sections: z.array(sectionDto),
    modelNotes: z.array(z.record(z.string(), z.unknown())).optional(),
  })
  .describe('the same JSON as `precis report <run> --format json`: the run, then its leaderboards');
export const errorDto = z.object({
  error: z.string(),
  requestId: z.string().describe('the x-request-id of the request; the gateway logs a 5xx under it'),
});
// An import as `precis ingest` does it, of a file the ingestion service can read (INGEST_ROOT).
export const importBody = z
  .object({
    kind: z.string().min(1),
    path: z.string().min(1),
    name: z.string().min(1),
    documents: z.string().min(1).optional(),
    replace: z.boolean().optional(),
  })
  .strict();
export const importedDto = z.object({
  status: z.enum(['imported', 'unchanged', 'replaced']),
  dataset: datasetDto,
});
export const pageDataDto = z
  .object({
    title: z.string(),
    run: runHeaderDto,
    usage: usageDto
      .extend({ costUsd: z.number(), reservedUsd: z.number() })
      .optional()
      .describe("what the run's model calls took, spent and reserved"),
    blocks: z.array(reportBlockDto).describe('the report blocks (tables, notes, lists)'),
    sections: z.array(sectionDto).describe("the run's leaderboards, as the report's sections"),
    figures: z.array(figureDto),
    batches: runBatchesDto.optional().describe('the provider batches of its calls, when it used any'),
  })
  .describe("what the web page draws of a run: the report's blocks and its leaderboards as charts");
export const cancelBody = z.object({ reason: z.string().max(500).optional() }).strict();
// A spec as a JSON object, or as the YAML text of a spec file; `fresh` as for `precis run --fresh`.
export const createBody = z
  .object({
    spec: z.record(z.string(), z.unknown()).optional(),
    specYaml: z.string().optional(),
    fresh: z.boolean().optional(),
    skipPreflight: z.boolean().optional(),
  })
  .strict()
  .refine((b) => (b.spec === undefined) !== (b.specYaml === undefined), {
    message: 'give exactly one of spec or specYaml',
  });
export const createdDto = z.object({ run: runDto, resumed: z.boolean() });
export const leaderboardDto = z.object({
  metric: z.string(),
  documents: z.number(),
  alpha: z.number(),
  resamples: z.number(),
  entries: z.array(
    z.object({
      run: z.object({ id: z.string(), name: z.string() }),
      system: z.string(),
      producedBy: z.string(),
      mean: z.number(),
      rank: z.number(),
      rankLabel: z.string().describe('"=2" for a rank several systems share'),
    }),
  ),
  comparisons: z.array(
    z.object({
      better: z.string(),
      worse: z.string(),
      meanDiff: z.number(),
      p: z.number().nullable(),
      pHolm: z.number().nullable(),
      significant: z.boolean(),
    }),
  ),
  notes: z
    .array(z.string())
    .describe('why every system shares rank 1, or where the tests are not transitive'),
});

const iso = (d: Date | undefined) => (d ? d.toISOString() : null);

export const IMPORT_STATUS: Partial<Record<ImportStatus, 'imported' | 'unchanged' | 'replaced'>> = {
  [ImportStatus.IMPORT_STATUS_IMPORTED]: 'imported',
  [ImportStatus.IMPORT_STATUS_UNCHANGED]: 'unchanged',
  [ImportStatus.IMPORT_STATUS_REPLACED]: 'replaced',
};

export function toRunDto(run: Run): z.output<typeof runDto> {
  return {
    id: run.id,
    name: run.name,
    status: fromProtoRunStatus(run.status) ?? 'unknown',
    error: run.error || null,
    createdAt: iso(run.createTime),
    startedAt: iso(run.startTime),
    finishedAt: iso(run.finishTime),
    taskCounts: run.taskCounts,
    costUsd: run.costUsd,
    reservedUsd: run.reservedUsd,
    datasets: run.datasets,
    headline: run.headline ?? null,
    usage: run.usage ?? null,
    batches: run.batches
      ? {
          ...run.batches,
          batches: run.batches.batches.map((b) => ({ ...b, providerBatchId: b.providerBatchId || null })),
        }
      : null,
    blockedBy: run.blockedBy || null,
  };
}

// A run with its whole spec (show and cancel answer it).
export function toRunShowDto(run: Run): z.output<typeof runShowDto> {
  return { run: toRunDto(run), spec: JSON.parse(run.specJson) as Record<string, unknown> };
}

export function toDatasetDto(d: Dataset): z.output<typeof datasetDto> {
  return {
    name: d.name,
    kind: d.kind,
    counts: d.counts,
    sourceSha256: d.sourceSha256,
    createdAt: iso(d.createTime),
  };
}
