import { createHash } from 'node:crypto';
import { DatasetEntity, OPEN_RUN_STATUSES, RunEntity } from '@precis/db';
import { FileAccessError, type FileAccessPolicy } from '@precis/files';
import type { ModelUse } from '@precis/llm';
import { In } from 'typeorm';
import type { FamilyRegistry } from '../family/family-registry.js';
import { isGeneratedSystem, strategyFitProblems } from '../spec/benchmark-spec.schema.js';
import type { LoadedSpec } from '../spec/load-spec.js';
import { SpecError } from '../spec/load-spec.js';
import type { RunContext } from './run-context.js';

export function specSha256(spec: unknown): string {
  return createHash('sha256').update(JSON.stringify(spec)).digest('hex');
}

export interface CreateRunResult {
  run: RunEntity;
  resumed: boolean;
}

// Every registry model a spec names, with where it names it.
export function specModels(spec: LoadedSpec['spec']): { where: string; model: string }[] {
  return [
    ...spec.systems.flatMap((s, i) =>
      s.model !== undefined ? [{ where: `systems[${i}].model`, model: s.model }] : [],
    ),
    ...spec.metrics.flatMap((m, i) =>
      m.judge?.model !== undefined ? [{ where: `metrics[${i}].judge.model`, model: m.judge.model }] : [],
    ),
  ];
}

// How the spec has each model called, for the preflight's capability check: a system's
// summarizer at its params.temperature, sampled at the model's own where it takes no other;
// each metric as its family declares (Metric.modelUses).
export function specModelUses(families: FamilyRegistry, spec: LoadedSpec['spec']): ModelUse[] {
  const systems = spec.systems.flatMap((s, i): ModelUse[] =>
    isGeneratedSystem(s) && s.model !== undefined
      ? [
          {
            where: `systems[${i}] (${s.name})`,
            model: s.model,
            role: `system "${s.name}"`,
            changeModel: 'summarize with',
            temperature: s.params.temperature,
            anyTemperature: true,
          },
        ]
      : [],
  );
  const metrics = spec.metrics.flatMap((m, i) => families.metrics.get(m.name)?.modelUses?.(spec, i) ?? []);
  return [...systems, ...metrics];
}

// A dataset file refused for its path says which spec entry named it (same problem, same path).
function inSpec(err: unknown, entry: string, file: string): unknown {
  if (!(err instanceof FileAccessError)) return err;
  return new FileAccessError(err.problem, err.path, `${err.reason} (${entry} in ${file})`);
}

// What stops a spec from running here: datasets neither given nor imported, strategies that do
// not fit their dataset's kind, models missing from the registry.
async function specProblems(ctx: RunContext, spec: LoadedSpec['spec']): Promise<string[]> {
  const problems: string[] = [];
  const stored = await ctx.db
    .getRepository(DatasetEntity)
    .findBy({ name: In(spec.datasets.map((d) => d.name)) });
  for (const [i, d] of spec.datasets.entries())
    if ((d.path === undefined || d.kind === undefined) && !stored.some((s) => s.name === d.name))
      problems.push(
        `datasets[${i}].name: no dataset "${d.name}" has been imported; import it with \`precis ingest\` or give its kind and path`,
      );
  // Datasets named without a kind take the stored one's.
  const kinds = spec.datasets.map((d) => d.kind ?? stored.find((s) => s.name === d.name)?.kind);
  for (const p of strategyFitProblems(ctx.families, spec, kinds))
    problems.push(`${p.path.join('.').replace(/\.(\d+)/g, '[$1]')}: ${p.message}`);
  for (const { where, model } of specModels(spec)) {
    if (!ctx.modelInfo) {
      problems.push(
        `${where}: "${model}" needs a model registry (set PRECIS_MODELS or "models:" in the spec)`,
      );
    } else if (!ctx.modelInfo(model)) {
      problems.push(`${where}: model "${model}" is not in the model registry`);
    }
  }
  return problems;
}

// The datasets given with a path, imported (an unchanged file is a no-op): all are read, compared
// and parsed before any is written, so a bad one leaves none imported.
async function importSpecDatasets(
  ctx: RunContext,
  spec: LoadedSpec['spec'],
  file: string,
  access: FileAccessPolicy | undefined,
): Promise<void> {
  const named = (where: string) => (err: unknown) => {
    throw inSpec(err, where, file);
  };
  const prepared: { where: string; dataset: { write(): Promise<unknown> } }[] = [];
  for (const [i, d] of spec.datasets.entries()) {
    if (d.path === undefined || d.kind === undefined) continue;
    const where = `datasets[${i}]`;
    if (!ctx.prepareImport)
      throw new SpecError(file, [
        `${where}.path: this host imports no dataset files; import "${d.name}" with \`precis ingest\` and name it without a path`,
      ]);
    // A kind its family registers without a parser (nothing is written so far).
    if (!ctx.families.datasetKinds.get(d.kind)?.parse)
      throw new SpecError(file, [
        `${where}.kind: no importer reads "${d.kind}" datasets (its family registers no parser for it)`,
      ]);
    const corpus = d.corpus === undefined ? {} : { documentsPath: d.corpus };
    const dataset = await ctx
      .prepareImport(ctx.db, {
        kind: d.kind,
        kinds: ctx.families.datasetKinds,
        path: d.path,
        ...corpus,
        name: d.name,
        access,
      })
      .catch(named(where));
    prepared.push({ where, dataset });
  }
  for (const { where, dataset } of prepared) await dataset.write().catch(named(where));
}

// Stores a validated spec as a run (or finds the unfinished run of the same spec, to resume it).
// Datasets given with a path are imported once the spec passes its checks (an unchanged file is
// a no-op).
export async function createRun(
  ctx: RunContext,
  loaded: LoadedSpec,
  // fileAccess: where dataset files may be read from (a server's INGEST_ROOT and limits).
  opts: { fresh?: boolean; fileAccess?: FileAccessPolicy } = {},
): Promise<CreateRunResult> {
  const { spec, file } = loaded;
  const sha = specSha256(spec);
  if (!opts.fresh) {
    const open = await ctx.db.getRepository(RunEntity).findOne({
      where: { specSha256: sha, status: In([...OPEN_RUN_STATUSES]) },
      order: { createdAt: 'DESC' },
    });
    if (open) return { run: open, resumed: true };
  }
  // Everything the spec asks for is checked before anything is written: a bad entry imports nothing.
  const problems = await specProblems(ctx, spec);
  if (problems.length) throw new SpecError(file, problems);
  await importSpecDatasets(ctx, spec, file, opts.fileAccess);
  const run = await ctx.db.getRepository(RunEntity).save(
    ctx.db.getRepository(RunEntity).create({
      name: spec.name,
      status: 'pending',
      spec: spec as unknown as Record<string, unknown>,
      specSha256: sha,
      costLimitUsd: spec.limits.costUsd === undefined ? null : String(spec.limits.costUsd),
      error: null,
      startedAt: null,
      finishedAt: null,
    }),
  );
  return { run, resumed: false };
}
