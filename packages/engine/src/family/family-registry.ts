import type { PromptTemplate } from '@precis/prompts';
import { z } from 'zod';
import { type BenchmarkSpec, buildSpecSchema, samplingParams } from '../spec/benchmark-spec.schema.js';
import type {
  BenchmarkFamily,
  DatasetKind,
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

// Whether two declarations of a params field accept, require and default the same values.
function sameField(a: z.core.$ZodType, b: z.core.$ZodType): boolean {
  const json = (t: z.core.$ZodType) =>
    JSON.stringify(z.toJSONSchema(z.object({ field: t }), { unrepresentable: 'any' }));
  return a === b || json(a) === json(b);
}

// systems[].params: the strategies' fields in registration order, a field keeping its first place
// (the parsed order is part of a spec's hash, by which a run resumes), then the engine's fields
// no strategy lists. A field declared twice must be the same; the engine's own is the one used.
function systemParams(families: readonly BenchmarkFamily[]): z.ZodRawShape {
  const engine: Record<string, z.core.$ZodType> = samplingParams;
  const shape: Record<string, z.core.$ZodType> = {};
  const owner = new Map<string, string>();
  for (const f of families)
    for (const s of f.strategies ?? [])
      for (const [key, field] of Object.entries(s.params ?? {})) {
        const first = engine[key] ?? shape[key];
        if (first && !sameField(first, field))
          throw new FamilyConflictError(
            `benchmark family ${f.name}: strategy "${s.name}" declares params.${key} unlike ${owner.get(key) ?? 'the engine'}; give it the same type, bounds and default, or another name`,
          );
        shape[key] ??= first ?? field;
        if (!owner.has(key)) owner.set(key, `strategy "${s.name}"`);
      }
  for (const [key, field] of Object.entries(engine)) shape[key] ??= field;
  return shape;
}

// The dataset kinds in `order` (each registered kind once), else in registration order.
function orderKinds(kinds: Map<string, DatasetKind>, order?: readonly string[]): Map<string, DatasetKind> {
  if (!order) return kinds;
  const problems = [
    ...[...kinds.keys()].filter((k) => !order.includes(k)).map((k) => `"${k}" is missing`),
    ...order.filter((k) => !kinds.has(k)).map((k) => `"${k}" is not registered`),
  ];
  if (problems.length)
    throw new FamilyConflictError(
      `the dataset kind order lists each registered kind: ${problems.join(', ')}`,
    );
  return new Map(order.map((k) => [k, kinds.get(k)!]));
}

export interface FamilyRegistryOptions {
  // Dataset kinds no family owns (plain documents, say), registered beside the families' own.
  readonly datasetKinds?: readonly DatasetKind[];
  // The order spec errors list the kinds in (every registered kind once).
  readonly kindOrder?: readonly string[];
}

// The benchmark families a process loaded: every strategy, system source, metric, task kind and
// dataset kind by name. The engine reaches families only through it (RunContext.families).
export class FamilyRegistry {
  readonly strategies = new Map<string, Strategy>();
  readonly sources = new Map<string, SystemSource>();
  readonly metrics = new Map<string, Metric>();
  readonly taskKinds = new Map<string, TaskKind>();
  readonly templates = new Map<string, PromptTemplate>();
  readonly datasetKinds: ReadonlyMap<string, DatasetKind>;
  // The fields of systems[].params (the engine's and every strategy's).
  readonly params: z.ZodRawShape;
  private schema: z.ZodType<BenchmarkSpec> | undefined;

  constructor(
    readonly families: readonly BenchmarkFamily[],
    opts: FamilyRegistryOptions = {},
  ) {
    if (families.length === 0) throw new FamilyConflictError('no benchmark family is loaded');
    const kinds = new Map<string, DatasetKind>();
    for (const f of families) {
      index(this.strategies, 'strategy', f.name, f.strategies ?? [], (s) => s.name);
      index(this.sources, 'system source', f.name, f.sources ?? [], (s) => s.source);
      index(this.metrics, 'metric', f.name, f.metrics ?? [], (m) => m.name);
      index(this.taskKinds, 'task kind', f.name, f.taskKinds, (k) => k.kind);
      index(this.templates, 'template', f.name, f.templates ?? [], (t) => t.id);
      index(kinds, 'dataset kind', f.name, f.datasetKinds ?? [], (k) => k.name);
    }
    for (const k of opts.datasetKinds ?? []) {
      if (kinds.has(k.name))
        throw new FamilyConflictError(`dataset kind "${k.name}" is given as generic and defined by a family`);
      kinds.set(k.name, k);
    }
    if (this.strategies.size === 0) throw new FamilyConflictError('the loaded families define no strategy');
    if (this.metrics.size === 0) throw new FamilyConflictError('the loaded families define no metric');
    this.datasetKinds = orderKinds(kinds, opts.kindOrder);
    this.checkStrategyKinds();
    this.params = systemParams(families);
  }

  private checkStrategyKinds(): void {
    for (const f of this.families)
      for (const s of f.strategies ?? [])
        for (const kind of s.datasetKinds ?? [])
          if (!this.datasetKinds.has(kind))
            throw new FamilyConflictError(
              `benchmark family ${f.name}: strategy "${s.name}" takes dataset kind "${kind}", which no loaded family registers`,
            );
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
