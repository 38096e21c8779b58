import { readErrorReason, readLocalText } from '@precis/files';
import { LineCounter, parseDocument } from 'yaml';
import { LlmConfigError } from '../errors.js';
import { redactSecretLooking } from '../secret-looking.js';
import type { ModelRegistry, ModelRegistryInput, ModelSpec } from './model-spec.js';
import { validateRegistry } from './validate-registry.js';

export interface RegistryIssue {
  field: string;
  message: string;
  line?: number;
}

// Every problem found in a registry, each with file, line (when known) and field path.
export class ModelRegistryError extends Error {
  constructor(
    readonly source: string,
    readonly issues: RegistryIssue[],
  ) {
    // Any field may hold a pasted key by mistake; the message reaches stderr and fatal logs.
    super(
      redactSecretLooking(
        `invalid model registry ${source}:\n${issues
          .map((i) => `  ${source}${i.line ? `:${i.line}` : ''} ${i.field}: ${i.message}`)
          .join('\n')}`,
      ),
    );
    this.name = 'ModelRegistryError';
  }
}

export interface RegistryOptions {
  // The server setting that named the file (see ModelRegistry.setting).
  setting?: string;
}

// Loads a registry from a YAML/JSON file path or from an already-parsed object.
export function loadModelRegistry(
  fileOrObject: string | ModelRegistryInput,
  opts: RegistryOptions = {},
): ModelRegistry {
  if (typeof fileOrObject !== 'string') return buildRegistry('<object>', fileOrObject, () => undefined, opts);
  const file = fileOrObject;
  let text: string;
  try {
    text = readLocalText(file);
  } catch (err) {
    throw new ModelRegistryError(file, [
      { field: '(file)', message: `cannot read: ${readErrorReason(err)}` },
    ]);
  }
  return parseModelRegistryText(text, file, opts);
}

// Parses registry YAML/JSON text; `source` names it in errors (usually the file path).
export function parseModelRegistryText(
  text: string,
  source: string,
  opts: RegistryOptions = {},
): ModelRegistry {
  const file = source;
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new ModelRegistryError(
      file,
      doc.errors.map((e) => ({
        field: '(syntax)',
        message: e.message.split('\n')[0] ?? e.message,
        line: lines.linePos(e.pos[0]).line,
      })),
    );
  }
  const lineOf = (path: string[]): number | undefined => {
    for (let n = path.length; n > 0; n--) {
      const node = doc.getIn(path.slice(0, n), true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return lines.linePos(node.range[0]).line;
    }
    return undefined;
  };
  return buildRegistry(file, doc.toJS() as unknown, lineOf, opts);
}

function buildRegistry(
  source: string,
  data: unknown,
  lineOf: (path: string[]) => number | undefined,
  opts: RegistryOptions,
): ModelRegistry {
  const { models, issues } = validateRegistry(data);
  if (issues.length > 0) {
    throw new ModelRegistryError(
      source,
      issues.map((i) => ({ field: i.path.join('.'), message: i.message, line: lineOf(i.path) })),
    );
  }
  const map: ReadonlyMap<string, ModelSpec> = new Map(models.map((m) => [m.name, m]));
  const where = opts.setting ? `${opts.setting} on the server` : source;
  return {
    source,
    ...(opts.setting ? { setting: opts.setting } : {}),
    models: map,
    names: () => [...map.keys()],
    get(name: string): ModelSpec {
      const spec = map.get(name);
      if (!spec) {
        throw new LlmConfigError(
          `unknown model "${name}": not in the model registry ${where} (known: ${[...map.keys()].join(', ') || 'none'})`,
          name,
        );
      }
      return spec;
    },
  };
}
