import { dirname, isAbsolute, resolve } from 'node:path';
import { readErrorReason, readLocalText } from '@precis/files';
import { redactSecretLooking } from '@precis/llm';
import type { z } from 'zod';
import type { FamilyRegistry } from '../family/family-registry.js';
import { checkTemplateOverrides, type TemplateOverrides } from '../templates/run-templates.js';
import type { BenchmarkSpec } from './benchmark-spec.schema.js';
import { parseSpecSource, type SpecFormat, SpecTextError } from './spec-text.js';

export class SpecError extends Error {
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    // A value quoted from the spec may be a key pasted into the wrong field.
    super(
      redactSecretLooking(`${file}: invalid benchmark spec\n${problems.map((p) => `  - ${p}`).join('\n')}`),
    );
    this.name = 'SpecError';
  }
}

// `systems[1].params.chunkSize`
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || '(top level)';
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = formatPath(issue.path);
  if (!issue.message.startsWith('Invalid input')) {
    if (issue.code !== 'unrecognized_keys') return `${where}: ${issue.message}`;
  }
  if (issue.code === 'invalid_type') {
    const expected = issue.expected === 'int' ? 'integer' : issue.expected;
    const received = issue.message.match(/received (\w+)/)?.[1];
    if (received === 'undefined') return `${where}: required (expected ${expected})`;
    return `${where}: expected ${expected}${received ? `, received ${received}` : ''}`;
  }
  if (issue.code === 'unrecognized_keys') {
    return `${where}: unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  }
  return `${where}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

// Validates a spec against the schema of the loaded families.
export function validateSpec(families: FamilyRegistry, raw: unknown, file = '<spec>'): BenchmarkSpec {
  const result = families.specSchema().safeParse(raw);
  if (!result.success) throw new SpecError(file, result.error.issues.map(describeIssue));
  const data = result.data as BenchmarkSpec;
  const problems = data.templateOverrides ? checkTemplateOverrides(families, data.templateOverrides) : [];
  if (problems.length) throw new SpecError(file, problems);
  return data;
}

export interface LoadedSpec {
  spec: BenchmarkSpec;
  file: string;
  text: string;
}

const formatOf = (path: string): SpecFormat => (/\.json$/i.test(path) ? 'json' : 'yaml');

// Reads a YAML or JSON spec; dataset and registry paths are resolved against the spec's folder.
export function loadSpecFile(families: FamilyRegistry, file: string): LoadedSpec {
  const abs = resolve(file);
  let text: string;
  try {
    text = readLocalText(abs);
  } catch (err) {
    throw new SpecError(file, [`cannot read the file (${readErrorReason(err)})`]);
  }
  let raw: unknown;
  try {
    raw = parseSpecSource(text, formatOf(abs));
  } catch (err) {
    if (err instanceof SpecTextError) throw new SpecError(file, [err.problem]);
    throw err;
  }
  const spec = validateSpec(families, raw, file);
  const base = dirname(abs);
  const rel = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  let templateOverrides = spec.templateOverrides;
  if (spec.templates !== undefined) {
    templateOverrides = { ...readTemplateOverrides(file, rel(spec.templates)), ...templateOverrides };
  }
  if (templateOverrides) {
    const problems = checkTemplateOverrides(families, templateOverrides);
    if (problems.length) throw new SpecError(file, problems);
  }
  return {
    file: abs,
    text,
    spec: {
      ...spec,
      templateOverrides,
      models: spec.models === undefined ? undefined : rel(spec.models),
      datasets: spec.datasets.map((d) => ({
        ...d,
        ...(d.path === undefined ? {} : { path: rel(d.path) }),
        ...(d.corpus === undefined ? {} : { corpus: rel(d.corpus) }),
      })),
    },
  };
}

// A templates file: { "<template id>": { "system"?: "...", "user"?: "..." } } in YAML or JSON.
function readTemplateOverrides(specFile: string, path: string): TemplateOverrides {
  let raw: unknown;
  try {
    raw = parseSpecSource(readLocalText(path), formatOf(path));
  } catch (err) {
    throw new SpecError(specFile, [
      `templates: cannot read ${path} (${readErrorReason(err).split('\n')[0]})`,
    ]);
  }
  const problems: string[] = [];
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new SpecError(specFile, [`templates: ${path} must map template ids to { system?, user? }`]);
  }
  const out: TemplateOverrides = {};
  for (const [id, v] of Object.entries(raw as Record<string, unknown>)) {
    const o = v as { system?: unknown; user?: unknown } | null;
    if (o === null || typeof o !== 'object' || Object.keys(o).some((k) => k !== 'system' && k !== 'user')) {
      problems.push(`templates.${id} (${path}): expected { system?: text, user?: text }`);
      continue;
    }
    if (
      (o.system !== undefined && typeof o.system !== 'string') ||
      (o.user !== undefined && typeof o.user !== 'string')
    ) {
      problems.push(`templates.${id} (${path}): system and user must be text`);
      continue;
    }
    out[id] = {
      ...(o.system !== undefined ? { system: o.system as string } : {}),
      ...(o.user !== undefined ? { user: o.user as string } : {}),
    };
  }
  if (problems.length) throw new SpecError(specFile, problems);
  return out;
}
