import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadModelRegistry, type ModelRegistry } from '@precis/llm';

// The registry a run uses: the spec's `models:` file, else $PRECIS_MODELS, else
// ./precis.models.yaml when it exists. None is fine for runs that use only offline engines.
export function resolveModelRegistry(
  specModels: string | undefined,
  env: NodeJS.ProcessEnv,
  cwd: string,
): ModelRegistry | undefined {
  const file = specModels ?? (env.PRECIS_MODELS ? resolve(cwd, env.PRECIS_MODELS) : undefined);
  if (file) return loadModelRegistry(file);
  const fallback = resolve(cwd, 'precis.models.yaml');
  return existsSync(fallback) ? loadModelRegistry(fallback) : undefined;
}
