import { jsonDepthOverflow, lineColumnAt } from '@precis/text';
import { Lexer, Parser, parse as parseYaml, YAMLParseError } from 'yaml';

// Nesting a spec may have. Its own fields need fewer than 10 levels (a system's params, a judge);
// 64, the bound of dataset JSON, leaves room and keeps every recursive step after parsing (YAML
// composition, validation, JSON.stringify, jsonb) thousands of frames below the stack's limit.
export const SPEC_MAX_DEPTH = 64;

// Length a spec's text may have. Specs are a few kilobytes; the bound keeps the YAML parser's
// duplicate-key check, quadratic in a mapping's keys, under about a second (10,000 keys: 0.9 s).
export const SPEC_MAX_CHARS = 128 * 1024;

const TOO_DEEP = `nested more than ${SPEC_MAX_DEPTH} levels deep`;
const FIX = 'a benchmark spec needs only a few levels: flatten it';

export type SpecFormat = 'json' | 'yaml';

// What is wrong with a spec's text, in words that follow its subject ("spec_yaml is ...").
export class SpecTextError extends Error {
  constructor(readonly problem: string) {
    super(problem);
    this.name = 'SpecTextError';
  }
}

// Parses a spec's JSON or YAML text. Text past SPEC_MAX_CHARS, and nesting past SPEC_MAX_DEPTH is refused with its line and
// column before any recursive parser sees it; errors are SpecTextError.
export function parseSpecSource(text: string, format: SpecFormat): unknown {
  if (text.length > SPEC_MAX_CHARS)
    throw new SpecTextError(
      `${text.length} characters long, over the limit of ${SPEC_MAX_CHARS}; a benchmark spec needs only a few kilobytes: split it into several specs`,
    );
  return format === 'json' ? parseJson(text) : parseYamlText(text);
}

// Why a parsed value (e.g. a spec sent as a JSON object) is refused, or null.
export function specDepthProblem(value: unknown): string | null {
  return depthExceeds(value, SPEC_MAX_DEPTH) ? `${TOO_DEEP}; ${FIX}` : null;
}

function tooDeepAt(text: string, offset: number): SpecTextError {
  const { line, column } = lineColumnAt(text, offset);
  return new SpecTextError(`${TOO_DEEP} (line ${line}, column ${column}); ${FIX}`);
}

function parseJson(text: string): unknown {
  const at = jsonDepthOverflow(text, SPEC_MAX_DEPTH);
  if (at >= 0) throw tooDeepAt(text, at);
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new SpecTextError(`not valid JSON: ${(err as Error).message}`);
  }
}

function parseYamlText(text: string): unknown {
  const at = yamlDepthOverflow(text);
  if (at >= 0) throw tooDeepAt(text, at);
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (err) {
    const line = err instanceof YAMLParseError && err.linePos ? ` at line ${err.linePos[0].line}` : '';
    throw new SpecTextError(`not valid YAML${line}: ${(err as Error).message.split('\n')[0]}`);
  }
  // Aliases can nest what the text does not (an anchor holding an alias of another).
  const problem = specDepthProblem(value);
  if (problem) throw new SpecTextError(problem);
  return value;
}

// The offset where YAML text opens a node deeper than the bound, or -1. yaml's own parser keeps
// its open nodes on an explicit stack (the document, each collection, the scalar being read),
// so watching that stack token by token stops at the first level too many, whatever the input.
function yamlDepthOverflow(text: string): number {
  const parser = new Parser();
  const limit = SPEC_MAX_DEPTH + 2;
  for (const lexeme of new Lexer().lex(text)) {
    const start = parser.offset;
    for (const _ of parser.next(lexeme)) {
      // The finished documents are not needed: only how deep the parser is.
    }
    if (parser.stack.length > limit) return start;
  }
  return -1;
}

// Iterative, and stops one level past the bound: any value (even a cyclic one) is safe to measure.
function depthExceeds(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
