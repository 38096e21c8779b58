import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';

// Checks a server's real answers against its OpenAPI 3.1 document: the body of (method, URL,
// status) must match the schema the document gives that response, so a field renamed in a
// mapper (a required one missing, an unknown one added) fails the test that made the request.

interface Operation {
  operationId?: string;
  responses?: Record<string, { content?: Record<string, { schema?: object }> }>;
}
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, object> };
}

export interface ResponseCheck {
  // Problems with one answer ('' path: the body's root), empty when it matches.
  problems(method: string, url: string, status: number, body: unknown): string[];
  // The same for a schema of components.schemas (an event's data, say).
  componentProblems(name: string, value: unknown): string[];
  // The operationIds with an application/json success answer, and those checked so far.
  readonly jsonOperations: string[];
  readonly checked: Set<string>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const COMPONENT_REF = '#/components/schemas/';
// A path template as a pattern: each {param} is one path segment.
const templatePattern = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^/}]+\}/g, '[^/]+')}$`);

// "/run: must have required property 'costUsd'", "/run: must NOT have additional property 'x'".
export function formatSchemaError(e: ErrorObject): string {
  const where = e.instancePath || '/';
  if (e.keyword === 'additionalProperties')
    return `${where}: must NOT have additional property '${String(e.params.additionalProperty)}'`;
  return `${where}: ${e.message ?? e.keyword}`;
}

const successWithJson = (op: Operation) =>
  Object.entries(op.responses ?? {}).some(
    ([code, r]) => code.startsWith('2') && r.content?.['application/json'],
  );

export function createResponseCheck(doc: OpenApiDoc): ResponseCheck {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  ajv.addFormat('uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
  const compiled = new Map<object, ValidateFunction>();
  // A response given as a reference to components.schemas (the error body) is checked against it.
  const resolved = (schema: object) => {
    const ref = (schema as { $ref?: string }).$ref;
    const name = ref?.startsWith(COMPONENT_REF) ? ref.slice(COMPONENT_REF.length) : null;
    return (name && doc.components?.schemas?.[name]) || schema;
  };
  const validate = (schema: object, value: unknown) => {
    const fn = compiled.get(schema) ?? ajv.compile(resolved(schema));
    compiled.set(schema, fn);
    return fn(value) ? [] : (fn.errors ?? []).map(formatSchemaError);
  };
  const templates = Object.keys(doc.paths).map((t) => ({ t, re: templatePattern(t) }));
  const checked = new Set<string>();
  const jsonOperations = Object.values(doc.paths).flatMap((ops) =>
    METHODS.flatMap((m) => (ops[m] && successWithJson(ops[m]) ? [ops[m].operationId ?? m] : [])),
  );

  const problems = (method: string, url: string, status: number, body: unknown): string[] => {
    const path = new URL(url, 'http://x').pathname;
    const template = templates
      .filter(({ re }) => re.test(path))
      .sort((a, b) => literalLength(b.t) - literalLength(a.t))[0];
    const op = template && doc.paths[template.t]![method.toLowerCase()];
    if (!op) return [`${method} ${path}: no operation in the document`];
    const schema = op.responses?.[String(status)]?.content?.['application/json']?.schema;
    if (!schema) return [`${method} ${template.t}: the document gives no JSON answer for ${status}`];
    if (op.operationId && status < 300) checked.add(op.operationId);
    return validate(schema, body);
  };

  const componentProblems = (name: string, value: unknown): string[] => {
    const schema = doc.components?.schemas?.[name];
    return schema ? validate(schema, value) : [`no schema ${name} in components.schemas`];
  };
  return { problems, componentProblems, jsonOperations, checked };
}

// A literal segment beats a parameter: /runs/{id}/cancel, not /runs/{id}/{x}.
const literalLength = (template: string) => template.replace(/\{[^}]+\}/g, '').length;
