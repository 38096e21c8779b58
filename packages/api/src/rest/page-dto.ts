import { z } from 'zod';

// What the web page draws: report blocks, figures, a run's view and a document's trace, as the
// engine's report code produces them (report-blocks.ts, report-figures.ts, render-trace.ts).
const reportTableDto = z.object({
  headers: z.array(z.string()),
  rows: z.array(z.array(z.string())).describe('what is shown, one string per header'),
  csvHeaders: z.array(z.string()).describe('a CI is two cells: "<h> low", "<h> high"'),
  csvRows: z
    .array(z.array(z.union([z.number(), z.string(), z.null()])))
    .describe('the same rows with numbers unformatted'),
  pinned: z
    .array(z.number().int())
    .optional()
    .describe('columns a narrow terminal keeps besides the first two (indices into headers)'),
});

export const reportBlockDto = z.object({
  key: z.string().describe("names the block's table in CSV; a leaderboard's key is its section's"),
  heading: z.string().optional(),
  label: z.string().optional().describe('an internal id shown small beside the heading, e.g. booookscore.0'),
  table: reportTableDto.optional(),
  chart: z
    .object({
      title: z.string(),
      bars: z.array(
        z.object({
          label: z.string(),
          share: z.number().nullable().describe('in [0, 1] draws a bar; null shows only the label'),
          display: z.string(),
        }),
      ),
    })
    .optional(),
  notes: z.array(z.string()).optional(),
  list: z.array(z.string()).optional(),
});

export const figureDto = z.object({
  key: z.string(),
  title: z.string().describe('the metric and what produced it (judge model or engine, template)'),
  metric: z.string().describe('the score axis with its unit, e.g. "Score (%)"'),
  higherIsBetter: z.boolean(),
  points: z.array(
    z.object({
      system: z.string(),
      score: z.number().nullable(),
      ci95: z.tuple([z.number(), z.number()]).nullable(),
      costUsd: z.number().nullable(),
    }),
  ),
  errors: z
    .object({
      types: z.array(z.string()),
      rows: z.array(z.object({ system: z.string(), counts: z.array(z.number()) })),
    })
    .optional()
    .describe('counts per error type and system; absent when the metric has none'),
});

// What every report says about its run.
export const runHeaderDto = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
  error: z.string().nullable(),
});

export const traceDto = z.object({
  document: z.object({ id: z.string(), externalId: z.string() }),
  systems: z.array(
    z.object({
      system: z.string(),
      strategy: z.string(),
      steps: z.array(
        z.object({
          taskId: z.string(),
          status: z.string(),
          payload: z.record(z.string(), z.unknown()).describe("the summarize task's payload"),
          result: z.record(z.string(), z.unknown()).nullable().describe('null until it is done'),
          error: z.string().nullable(),
        }),
      ),
    }),
  ),
  verdicts: z
    .array(reportBlockDto)
    .describe("the families' verdict blocks: each verdict of each summary (BooookScore's sentences...)"),
});

// The SSE `progress` event of GET /api/v1/runs/{id}/events (run-events.ts).
export const runProgressDto = z.object({
  id: z.string(),
  status: z.string(),
  error: z.string().nullable(),
  summaries: z.object({ expected: z.number(), done: z.number(), failed: z.number() }),
  tasks: z
    .record(
      z.string(),
      z.object({ total: z.number(), done: z.number(), failed: z.number(), cancelled: z.number() }),
    )
    .describe('per stage'),
  blockedBy: z
    .string()
    .nullable()
    .describe('a stage queue that keeps failing while the run has work on it; null when none'),
  waitingTasks: z.number().describe('tasks waiting for provider batches (limits.batch)'),
});
