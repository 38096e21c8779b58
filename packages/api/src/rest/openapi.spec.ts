import { describe, expect, it } from '@jest/globals';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiDocument } from './openapi.js';

type Operation = { responses: Record<string, { headers?: Record<string, unknown> }> };

// The document tells what the gateway answers: every response names its x-request-id header,
// every operation its internal-error answer.
describe('the OpenAPI document', () => {
  const doc = openApiDocument('1.2.3');

  it('is valid OpenAPI 3.1', async () => {
    expect(await new Validator().validate(doc)).toEqual({ valid: true });
  });

  it('gives every response the x-request-id header and every operation a 500', () => {
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops as Record<string, Operation>).map(([method, op]) => ({
        at: `${method} ${path}`,
        op,
      })),
    );
    expect(operations.length).toBeGreaterThan(10);
    for (const { at, op } of operations) {
      expect([at, Object.keys(op.responses)]).toEqual([at, expect.arrayContaining(['500'])]);
      for (const [code, response] of Object.entries(op.responses))
        expect([at, code, Object.keys(response.headers ?? {})]).toEqual([at, code, ['x-request-id']]);
    }
    const listRuns = doc.paths['/api/v1/runs'].get.parameters;
    expect(listRuns.find((p) => p.name === 'limit')?.schema).toEqual({
      type: 'integer',
      minimum: 1,
      maximum: 100,
      default: 50,
    });
  });
});
