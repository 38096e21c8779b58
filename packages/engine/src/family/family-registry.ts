import type { PromptTemplate } from '@precis/prompts';
import type { z } from 'zod';
import { type BenchmarkSpec, buildSpecSchema } from '../spec/benchmark-spec.schema.js';
import type {
  BenchmarkFamily,
  Metric,
  ReportSection,
  Strategy,
  SystemSource,
  TaskKind,
} from './benchmark-family.js';

export class FamilyConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FamilyConflictError';
  }
}

// Adds each named part to `into`, refusing a name two families claim.
function index<T>(
  into: Map<string, T>,
  what: string,
  family: string,
  parts: readonly T[],
  key: (p: T) => string,
) {
  for (const part of parts) {
    const name = key(part);
    if (into.has(name))
      throw new FamilyConflictError(
        `benchmark family ${family}: ${what} "${name}" is already defined by another family`,
      );
    into.set(name, part);
  }
}

// The benchmark families a process loaded: every strategy, system source, metric and task kind
// by name. The engine reaches families only through it (RunContext.families).
export class FamilyRegistry {
  readonly strategies = new Map<string, Strategy>();
  readonly sources = new Map<string, SystemSource>();
  readonly metrics = new Map<string, Metric>();
  readonly taskKinds = new Map<string, TaskKind>();
  readonly templates = new Map<string, PromptTemplate>();
  private schema: z.ZodType<BenchmarkSpec> | undefined;

  constructor(readonly families: readonly BenchmarkFamily[]) {
    if (families.length === 0) throw new FamilyConflictError('no benchmark family is loaded');
    for (const f of families) {
      index(this.strategies, 'strategy', f.name, f.strategies ?? [], (s) => s.name);
      index(this.sources, 'system source', f.name, f.sources ?? [], (s) => s.source);
      index(this.metrics, 'metric', f.name, f.metrics ?? [], (m) => m.name);
      index(this.taskKinds, 'task kind', f.name, f.taskKinds, (k) => k.kind);
      index(this.templates, 'template', f.name, f.templates ?? [], (t) => t.id);
    }
    if (this.strategies.size === 0) throw new FamilyConflictError('the loaded families define no strategy');
    if (this.metrics.size === 0) throw new FamilyConflictError('the loaded families define no metric');
  }

  // The benchmark spec schema these families accept (built once).
  specSchema(): z.ZodType<BenchmarkSpec> {
    this.schema ??= buildSpecSchema(this);
    return this.schema;
  }

  taskKind(kind: string): TaskKind | undefined {
    return this.taskKinds.get(kind);
  }

  isPermanent(err: unknown): boolean {
    return this.families.some((f) => f.isPermanent?.(err) === true);
  }

  get reportSections(): ReportSection[] {
    return this.families.flatMap((f) => (f.report ? [f.report] : []));
  }
}
