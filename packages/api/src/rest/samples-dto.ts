import { z } from 'zod';

// A failed sample: its judge gave no usable score, so its value is null.
const value = z.number().nullable().describe('null for a failed sample (its judge gave no usable score)');

export const samplePageDto = z.object({
  total: z.number().describe("the run's per-summary metric values matching the filters"),
  offset: z.number(),
  samples: z.array(
    z.object({
      document: z.string().describe("the document's external id"),
      documentId: z.string(),
      system: z.string(),
      metric: z.string(),
      value,
      producedBy: z.string(),
    }),
  ),
  systems: z.array(z.string()).describe('every system with a per-summary value in the run'),
  metrics: z.array(z.string()).describe('every metric with a per-summary value in the run'),
});

export const sideBySideDto = z.object({
  document: z.object({ id: z.string(), externalId: z.string() }),
  metrics: z.array(z.string()).describe('every metric any system has a value of, sorted'),
  systems: z
    .array(
      z.object({
        system: z.string(),
        strategy: z
          .string()
          .nullable()
          .describe("null for a system a source expanded into (a dataset's candidates)"),
        summary: z.string().nullable().describe('the final summary; null when the system has none'),
        producer: z.string().nullable(),
        finalStep: z.string().nullable(),
        values: z.array(
          z.object({
            metric: z.string(),
            value,
            producedBy: z.string(),
            failure: z.string().nullable().describe('why it failed, where the family recorded it'),
          }),
        ),
      }),
    )
    .describe("in the spec's order"),
});
