import { RUN_STATUSES } from '@precis/db';
import { SPEC_MAX_DEPTH } from '@precis/engine';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../grpc/page-token.js';
import { runProgressDto, traceDto } from './page-dto.js';
import {
  createdDto,
  datasetDto,
  datasetListDto,
  errorDto,
  importedDto,
  leaderboardDto,
  pageDataDto,
  reportDto,
  runListDto,
  runShowDto,
} from './rest-dto.js';
import { samplesPaths } from './samples-openapi.js';
import { transcriptPaths } from './transcript-openapi.js';

// OpenAPI 3.1 schemas are JSON Schema 2020-12, zod's default target.
const schema = (s: z.ZodType) => z.toJSONSchema(s);
// Schemas given once in components.schemas and referenced by every answer that uses them (the
// error body is on each operation's error answers).
const COMPONENTS = new Map<z.ZodType, string>([[errorDto, 'Error']]);
const schemaOrRef = (s: z.ZodType) => {
  const name = COMPONENTS.get(s);
  return name ? { $ref: `#/components/schemas/${name}` } : schema(s);
};
// Every response carries the request's id: the caller's own x-request-id when sane, else a new one.
const headers = {
  'x-request-id': {
    description: 'the id the gateway logs this request under (a 5xx is logged with its stack)',
    schema: { type: 'string' },
  },
};
const json = (s: z.ZodType, description: string) => ({
  description,
  headers,
  content: { 'application/json': { schema: schemaOrRef(s) } },
});
const body = (properties: Record<string, unknown>, required: string[] = []) => ({
  required: true,
  content: {
    'application/json': { schema: { type: 'object', properties, ...(required.length ? { required } : {}) } },
  },
});
const errors = {
  '401': json(errorDto, 'no API key, or an unknown one'),
  '403': json(errorDto, 'a read key on a route that needs a write key'),
  '500': json(errorDto, 'an internal error: its details are in the gateway log under the requestId'),
  '503': json(
    errorDto,
    "the gateway's database or message bus is unavailable, or it is shutting down: retry later",
  ),
};
const runId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'run id or its first characters',
};

// A report's significance level; absent: the spec's (else 0.05).
const reportAlpha = {
  name: 'alpha',
  in: 'query',
  schema: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
  description: "the significance level of the report's tests; absent: the spec's, else 0.05",
};

// The REST API's OpenAPI document, generated from the response schemas in rest-dto.ts.
export function openApiDocument(version: string) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Precis',
      version,
      license: { name: 'MIT', identifier: 'MIT' },
      description:
        'Runs, reports and datasets of a Precis gateway. Send `x-request-id` (up to 128 letters, digits, `.`, `_`, `:` or `-`) to have your own id on the response and in the log.',
    },
    components: {
      // The data of each `progress` event of GET /api/v1/runs/{id}/events.
      schemas: {
        RunProgress: schema(runProgressDto),
        ...Object.fromEntries([...COMPONENTS].map(([s, name]) => [name, schema(s)])),
      },
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', description: 'PRECIS_API_KEYS or `precis keys create`' },
      },
    },
    security: [{ apiKey: [] }],
    // Relative: the document is served by the gateway it describes (GET /api/v1/openapi.json).
    servers: [{ url: '/', description: 'the gateway serving this document' }],
    tags: [
      { name: 'runs', description: 'create, follow, cancel and delete runs' },
      { name: 'reports', description: "a run's leaderboards, samples, traces and model calls" },
      { name: 'datasets', description: 'import and list datasets' },
    ],
    paths: {
      '/api/v1/runs': {
        get: {
          operationId: 'listRuns',
          tags: ['runs'],
          summary: 'runs, newest first',
          parameters: [
            { name: 'status', in: 'query', schema: { type: 'string', enum: [...RUN_STATUSES] } },
            {
              name: 'limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE },
            },
            { name: 'pageToken', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            '200': json(runListDto, 'one page of runs'),
            '400': json(errorDto, 'a bad parameter'),
            ...errors,
          },
        },
        post: {
          operationId: 'createRun',
          tags: ['runs'],
          summary: 'create (or resume) a run from a spec (needs a write key)',
          requestBody: body({
            spec: { type: 'object' },
            specYaml: { type: 'string' },
            fresh: { type: 'boolean' },
            skipPreflight: { type: 'boolean' },
          }),
          responses: {
            '201': json(createdDto, 'the run, and whether an unfinished one of the same spec was resumed'),
            '400': json(
              errorDto,
              `an invalid spec, naming the path; one nested more than ${SPEC_MAX_DEPTH} levels deep; or one that asks a model for what PRECIS_MODELS says it cannot do (a judge temperature, logprobs), one line each: no run was created or resumed`,
            ),
            '409': json(
              errorDto,
              'a model failed its preflight (key variable unset on the server, or the endpoint refused): no run was created or resumed',
            ),
            ...errors,
          },
        },
      },
      '/api/v1/runs/{id}': {
        get: {
          operationId: 'getRun',
          tags: ['runs'],
          summary: 'one run with its spec, task counts and cost',
          parameters: [runId],
          responses: { '200': json(runShowDto, 'the run'), '404': json(errorDto, 'no such run'), ...errors },
        },
        delete: {
          operationId: 'deleteRun',
          tags: ['runs'],
          summary: 'delete a finished, cancelled or interrupted run and its results (needs a write key)',
          parameters: [runId],
          responses: {
            '200': json(z.object({ deleted: z.string().describe("the deleted run's id") }), 'deleted'),
            '404': json(errorDto, 'no such run'),
            '409': json(errorDto, 'the run is still open: cancel it first'),
            ...errors,
          },
        },
      },
      '/api/v1/runs/{id}/report': {
        get: {
          operationId: 'getRunReport',
          tags: ['reports'],
          summary: "a run's leaderboards",
          parameters: [runId, reportAlpha],
          responses: {
            '200': json(reportDto, 'the report'),
            '400': json(errorDto, 'a bad alpha'),
            '404': json(errorDto, 'no such run'),
            ...errors,
          },
        },
      },
      '/api/v1/runs/{id}/view': {
        get: {
          operationId: 'getRunView',
          tags: ['reports'],
          summary: "the run's report blocks and figures, as the web page draws them",
          parameters: [runId, reportAlpha],
          responses: {
            '200': json(pageDataDto, 'the blocks and figures'),
            '400': json(errorDto, 'a bad alpha'),
            '404': json(errorDto, 'no such run'),
            ...errors,
          },
        },
      },
      ...samplesPaths(json, errors, runId),
      '/api/v1/runs/{id}/traces/{document}': {
        get: {
          operationId: 'getDocumentTrace',
          tags: ['reports'],
          summary: "every stored step of one document's summaries and every verdict on them",
          parameters: [
            runId,
            {
              name: 'document',
              in: 'path',
              required: true,
              schema: { type: 'string' },
              description: "the document's external id",
            },
          ],
          responses: {
            '200': json(traceDto, "the document, each system's steps, the verdict blocks"),
            '404': json(errorDto, 'no such run or document'),
            ...errors,
          },
        },
      },
      ...transcriptPaths(json, errors, runId),
      '/api/v1/runs/{id}/events': {
        get: {
          operationId: 'streamRunEvents',
          tags: ['runs'],
          summary:
            "a run's progress as server-sent events (`progress`: status, summaries, tasks per stage and `blockedBy`, the stage queue that keeps failing), until it ends",
          parameters: [runId],
          responses: {
            '200': {
              description: 'the event stream',
              headers,
              content: {
                'text/event-stream': {
                  // contentSchema only annotates: the data of each event, not the stream, is JSON.
                  schema: {
                    type: 'string',
                    description: '`progress` events, each with a RunProgress as its data',
                    contentSchema: { $ref: '#/components/schemas/RunProgress' },
                  },
                },
              },
            },
            '404': json(errorDto, 'no such run'),
            ...errors,
          },
        },
      },
      '/api/v1/runs/{id}/cancel': {
        post: {
          operationId: 'cancelRun',
          tags: ['runs'],
          summary: 'cancel an unfinished run (needs a write key)',
          parameters: [runId],
          requestBody: { ...body({ reason: { type: 'string', maxLength: 500 } }), required: false },
          responses: {
            '200': json(runShowDto, 'the run after cancelling'),
            '400': json(errorDto, 'a body with unknown fields, or a reason over 500 characters'),
            '404': json(errorDto, 'no such run'),
            ...errors,
          },
        },
      },
      '/api/v1/leaderboard': {
        get: {
          operationId: 'getCrossRunLeaderboard',
          tags: ['reports'],
          summary:
            'the systems of several runs ranked on one per-document metric (paired bootstrap, Holm; ties share a rank)',
          parameters: [
            {
              name: 'runs',
              in: 'query',
              required: true,
              schema: { type: 'string' },
              description: 'run ids, comma-separated',
            },
            { name: 'metric', in: 'query', schema: { type: 'string' } },
            {
              name: 'alpha',
              in: 'query',
              schema: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, default: 0.05 },
            },
          ],
          responses: {
            '200': json(leaderboardDto, 'the ranked systems and every comparison'),
            '400': json(errorDto, 'no shared metric or document, or a bad parameter'),
            ...errors,
          },
        },
      },
      '/api/v1/datasets/{name}': {
        get: {
          operationId: 'getDataset',
          tags: ['datasets'],
          summary: 'one imported dataset with its counts',
          parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': json(z.object({ dataset: datasetDto }), 'the dataset'),
            '404': json(errorDto, 'no such dataset'),
            ...errors,
          },
        },
      },
      '/api/v1/datasets': {
        post: {
          operationId: 'importDataset',
          tags: ['datasets'],
          summary:
            'import a file the ingestion service can read, as `precis ingest` does (needs a write key)',
          requestBody: body(
            {
              kind: { type: 'string' },
              path: { type: 'string' },
              name: { type: 'string' },
              documents: { type: 'string' },
              replace: { type: 'boolean' },
            },
            ['kind', 'path', 'name'],
          ),
          responses: {
            '201': json(importedDto, 'imported, unchanged (the same file) or replaced'),
            '400': json(errorDto, 'an invalid file: what, where (file, line, field) and how to fix it'),
            '409': json(errorDto, 'the name holds another file: pass replace'),
            ...errors,
          },
        },
        get: {
          operationId: 'listDatasets',
          tags: ['datasets'],
          summary: 'imported datasets by name',
          parameters: [
            { name: 'kind', in: 'query', schema: { type: 'string' } },
            { name: 'pageToken', in: 'query', schema: { type: 'string' } },
          ],
          responses: {
            '200': json(datasetListDto, 'one page of datasets'),
            '400': json(errorDto, 'a bad parameter'),
            ...errors,
          },
        },
      },
    },
  };
}
