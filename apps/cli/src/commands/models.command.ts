import { resolve } from 'node:path';
import { checkModels, loadModelRegistry, type ModelRegistry } from '@precis/llm';
import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { printJson } from '../output.js';
import { resolveModelRegistry } from '../runtime/model-registry.js';
import { renderModelChecks } from './models-check-output.js';

// Exit status of a usage error (no registry, an unknown --model), apart from 1: a model disagrees.
const USAGE = 2;

class UsageError extends Error {}

function registryFor(ctx: CliContext, file: string | undefined): ModelRegistry {
  const registry = file
    ? loadModelRegistry(resolve(ctx.cwd, file))
    : resolveModelRegistry(undefined, ctx.env, ctx.cwd);
  if (!registry)
    throw new UsageError(
      'no model registry: pass --models <file>, set PRECIS_MODELS, or create ./precis.models.yaml',
    );
  return registry;
}

function pickModels(registry: ModelRegistry, names: string[]): string[] {
  if (names.length === 0) return registry.names();
  const unknown = names.filter((n) => !registry.models.has(n));
  if (unknown.length)
    throw new UsageError(
      `no model ${unknown.map((n) => `"${n}"`).join(', ')} in ${registry.source} (it has: ${registry.names().join(', ')})`,
    );
  return [...new Set(names)];
}

// `precis models check`: a few cheap probes per model beside what the registry declares.
export function modelsCommand(ctx: CliContext): Command {
  const models = new Command('models').description('the model registry and the endpoints behind it');
  models
    .command('check')
    .description(
      'probe each model (token parameter, temperature 0, n = 2, logprobs, seed, thinking) and compare with the registry; exit 1 when they disagree',
    )
    .option('--models <file>', 'the model registry (default: $PRECIS_MODELS, else ./precis.models.yaml)')
    .option(
      '--model <name>',
      'check only this model (repeatable)',
      (v: string, all: string[]) => [...all, v],
      [],
    )
    .option('--json', 'print as JSON')
    .action(async (opts: { models?: string; model: string[]; json?: boolean }) => {
      let registry: ModelRegistry;
      let names: string[];
      try {
        registry = registryFor(ctx, opts.models);
        names = pickModels(registry, opts.model);
      } catch (err) {
        ctx.stderr.write(`precis: error: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = USAGE;
        return;
      }
      const checks = await checkModels({ registry, models: names, env: ctx.env });
      const ok = checks.every((c) => c.status === 'ok');
      if (opts.json) printJson(ctx, { ok, models: checks });
      else ctx.stdout.write(renderModelChecks(checks));
      process.exitCode = ok ? 0 : 1;
    });
  return models;
}
