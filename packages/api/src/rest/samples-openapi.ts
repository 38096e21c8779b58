import { SAMPLE_ORDERS, SAMPLE_SORTS } from '@precis/engine';
import type { z } from 'zod';
import { DEFAULT_SAMPLES_PAGE, MAX_SAMPLES_OFFSET, MAX_SAMPLES_PAGE } from '../runs/samples.service.js';
import { errorDto } from './rest-dto.js';
import { samplePageDto, sideBySideDto } from './samples-dto.js';

type Json = (s: z.ZodType, description: string) => unknown;

const query = (name: string, schema: Record<string, unknown>, description?: string) => ({
  name,
  in: 'query',
  schema,
  ...(description ? { description } : {}),
});

// The samples routes of the OpenAPI document (openapi.ts passes its helpers).
export function samplesPaths(json: Json, errors: Record<string, unknown>, runId: unknown) {
  return {
    '/api/v1/runs/{id}/samples': {
      get: {
        operationId: 'listRunSamples',
        tags: ['reports'],
        summary: 'per-summary metric values of a run, filtered and sorted by the server, one page at a time',
        parameters: [
          runId,
          query('system', { type: 'string' }, "only this system's values"),
          query('metric', { type: 'string' }, "only this metric's values"),
          query('min', { type: 'number' }, 'only values at least this (a failed sample is in no range)'),
          query('max', { type: 'number' }, 'only values at most this'),
          query(
            'failed',
            { type: 'string', enum: ['true', 'false'] },
            'true: only failed samples (a null value: the judge gave no usable score); false: only scored ones',
          ),
          query(
            'sort',
            { type: 'string', enum: [...SAMPLE_SORTS] },
            'the column to sort by (ties by system, document and metric; metric sorts by value within a metric); absent: system, document id, metric',
          ),
          query(
            'order',
            { type: 'string', enum: [...SAMPLE_ORDERS], default: 'asc' },
            'a failed value sorts lowest',
          ),
          query('offset', { type: 'integer', minimum: 0, maximum: MAX_SAMPLES_OFFSET }),
          query('limit', {
            type: 'integer',
            minimum: 1,
            maximum: MAX_SAMPLES_PAGE,
            default: DEFAULT_SAMPLES_PAGE,
          }),
        ],
        responses: {
          '200': json(samplePageDto, "one page in a stable order, with the run's systems and metrics"),
          '400': json(errorDto, 'a bad filter, sort, offset or limit'),
          '404': json(errorDto, 'no such run'),
          ...errors,
        },
      },
    },
    '/api/v1/runs/{id}/side-by-side/{document}': {
      get: {
        operationId: 'getSideBySide',
        tags: ['reports'],
        summary: "each system's final summary of one document beside its per-summary scores",
        parameters: [
          runId,
          {
            name: 'document',
            in: 'path',
            required: true,
            schema: { type: 'string' },
            description: "the document's external id or id",
          },
        ],
        responses: {
          '200': json(sideBySideDto, 'the document, its metrics and one column per system'),
          '404': json(errorDto, 'no such run or document'),
          ...errors,
        },
      },
    },
  };
}
