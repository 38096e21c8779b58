import type { z } from 'zod';
import { DEFAULT_CALLS_PAGE, MAX_CALLS_PAGE } from '../runs/transcripts.service.js';
import { errorDto } from './rest-dto.js';
import { callPageDto, runFactsDto } from './transcript-dto.js';

type Json = (s: z.ZodType, description: string) => unknown;

// The transcript routes of the OpenAPI document (openapi.ts passes its helpers).
export function transcriptPaths(json: Json, errors: Record<string, unknown>, runId: unknown) {
  const document = {
    name: 'document',
    in: 'path',
    required: true,
    schema: { type: 'string' },
    description: "the document's external id",
  };
  return {
    '/api/v1/runs/{id}/traces/{document}/calls': {
      get: {
        operationId: 'getDocumentCalls',
        tags: ['reports'],
        summary:
          "the model calls behind a document's summaries and judgments: prompts, raw replies (reasoning apart), tokens, cost, cache",
        parameters: [
          runId,
          document,
          {
            name: 'system',
            in: 'query',
            schema: { type: 'string' },
            description: "only this system's calls",
          },
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: MAX_CALLS_PAGE, default: DEFAULT_CALLS_PAGE },
          },
          { name: 'pageToken', in: 'query', schema: { type: 'string' } },
        ],
        responses: {
          '200': json(callPageDto, 'one page of calls'),
          '400': json(errorDto, 'a bad limit or page token'),
          '404': json(errorDto, 'no such run or document'),
          ...errors,
        },
      },
    },
    '/api/v1/runs/{id}/facts': {
      get: {
        operationId: 'getRunFacts',
        tags: ['runs'],
        summary: "a run's spec as stored, its models' registry entries (never keys), templates and seed",
        parameters: [runId],
        responses: {
          '200': json(runFactsDto, "the run's facts"),
          '404': json(errorDto, 'no such run'),
          ...errors,
        },
      },
    },
  };
}
