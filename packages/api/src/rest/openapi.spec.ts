import { describe, expect, it } from '@jest/globals';
import { createConfig, lintFromString } from '@redocly/openapi-core';
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

  it('names every operation for client generators: a unique operationId and a declared tag', () => {
    const tags = doc.tags.map((t) => t.name);
    const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops as Record<string, { operationId?: string; tags?: string[] }>).map(
        ([method, op]) => ({
          at: `${method} ${path}`,
          id: op.operationId,
          tags: op.tags ?? [],
        }),
      ),
    );
    expect(operations.filter((o) => !o.id || o.tags.length !== 1 || !tags.includes(o.tags[0]!))).toEqual([]);
    expect(new Set(operations.map((o) => o.id)).size).toBe(operations.length);
    expect(operations.find((o) => o.at === 'get /api/v1/runs/{id}')?.id).toBe('getRun');
    expect([doc.servers, doc.info.license]).toEqual([
      [{ url: '/', description: 'the gateway serving this document' }],
      { name: 'MIT', identifier: 'MIT' },
    ]);
  });

  // Redocly's recommended rules, as `redocly lint` applies them: what client generators rely on.
  const lint = async (document: unknown) => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: '/openapi.json',
      config,
    });
    return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message}`);
  };

  it("passes Redocly's recommended lint, which names what a document lacks", async () => {
    expect(await lint(doc)).toEqual([]);
    const getRun = doc.paths['/api/v1/runs/{id}'].get;
    const broken = {
      ...doc,
      servers: undefined,
      paths: {
        ...doc.paths,
        '/api/v1/runs/{id}': {
          ...doc.paths['/api/v1/runs/{id}'],
          get: { ...getRun, operationId: undefined },
        },
      },
    };
    expect(await lint(broken)).toEqual([
      'error no-empty-servers: Servers must be present.',
      'warn operation-operationId: Operation object should contain `operationId` field.',
    ]);
  });
});
