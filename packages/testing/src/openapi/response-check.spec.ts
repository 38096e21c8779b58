import { describe, expect, it } from '@jest/globals';
import { createResponseCheck, type OpenApiDoc } from './response-check.js';

const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const run = {
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' }, costUsd: { type: 'number' } },
  required: ['id', 'costUsd'],
  additionalProperties: false,
};
const doc: OpenApiDoc = {
  paths: {
    '/api/v1/runs/{id}': { get: { operationId: 'getRun', responses: { '200': json(run) } } },
    '/api/v1/runs/{id}/{part}': { get: { operationId: 'getPart', responses: { '200': json({}) } } },
    '/api/v1/runs/{id}/cancel': {
      post: {
        operationId: 'cancelRun',
        responses: {
          '200': json(run),
          '404': json({ type: 'object' }),
          '409': json({ $ref: '#/components/schemas/Error' }),
        },
      },
    },
  },
  components: {
    schemas: {
      Progress: { type: 'object', properties: { status: { type: 'string' } }, required: ['status'] },
      Error: { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] },
    },
  },
};
const id = '0b5a3c1e-9d2f-4a7b-8c6d-1e2f3a4b5c6d';

describe('createResponseCheck', () => {
  it('passes a matching answer and names the operations it checked', () => {
    const check = createResponseCheck(doc);
    expect(check.problems('GET', `/api/v1/runs/${id}?x=1`, 200, { id, costUsd: 0.5 })).toEqual([]);
    expect(check.problems('POST', `/api/v1/runs/${id}/cancel`, 404, { error: 'no' })).toEqual([]);
    expect([...check.checked]).toEqual(['getRun']);
    expect(check.jsonOperations).toEqual(['getRun', 'getPart', 'cancelRun']);
  });

  it('names a renamed field twice: the required one missing and the unknown one', () => {
    const check = createResponseCheck(doc);
    expect(check.problems('POST', `/api/v1/runs/${id}/cancel`, 200, { id: 'x', costUSD: 1 })).toEqual([
      "/: must have required property 'costUsd'",
      "/: must NOT have additional property 'costUSD'",
      '/id: must match format "uuid"',
    ]);
    expect(check.componentProblems('Progress', {})).toEqual(["/: must have required property 'status'"]);
  });

  it('checks an answer given as a reference against the component it names', () => {
    const check = createResponseCheck(doc);
    expect(check.problems('POST', `/api/v1/runs/${id}/cancel`, 409, { error: 'still open' })).toEqual([]);
    expect(check.problems('POST', `/api/v1/runs/${id}/cancel`, 409, { message: 'x' })).toEqual([
      "/: must have required property 'error'",
    ]);
  });

  it('says when the document has no such operation or answer', () => {
    const check = createResponseCheck(doc);
    expect(check.problems('DELETE', '/api/v1/runs/x', 200, {})).toEqual([
      'DELETE /api/v1/runs/x: no operation in the document',
    ]);
    expect(check.problems('GET', '/api/v1/runs/x', 500, {})).toEqual([
      'GET /api/v1/runs/{id}: the document gives no JSON answer for 500',
    ]);
  });
});
