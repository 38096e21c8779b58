import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type BenchmarkFamily, FamilyRegistry } from '@precis/engine/family';
import { builtInFamilies, GENERIC_DATASET_KINDS, KIND_ORDER, SHIPPED_FAMILIES } from './built-in-families.js';

// The variable naming the benchmark families a process loads beside the shipped ones.
export const FAMILIES_ENV = 'PRECIS_FAMILIES';

const HOW =
  "give a package name or a path to the family's built module (e.g. ./my-family/dist/index.js), " +
  'which exports `family` (or a default export) made with the BenchmarkFamily interface of @precis/engine/family';

export class FamilyLoadError extends Error {
  constructor(message: string) {
    super(`${FAMILIES_ENV}: ${message}`);
    this.name = 'FamilyLoadError';
  }
}

let loaded: FamilyRegistry | undefined;
let loadedFrom: string | undefined;

// The module names or paths in PRECIS_FAMILIES (comma-separated; blanks ignored).
export function familyModules(env: NodeJS.ProcessEnv): string[] {
  return (env[FAMILIES_ENV] ?? '')
    .split(',')
    .map((m) => m.trim())
    .filter(Boolean);
}

// A path (./x, ../x, /x) is read from the working directory; anything else is a package name.
function specifierOf(module: string, cwd: string): string {
  const isPath = module.startsWith('.') || isAbsolute(module);
  return isPath ? pathToFileURL(resolve(cwd, module)).href : module;
}

function familyOf(module: string, exports: Record<string, unknown>): BenchmarkFamily {
  const candidate = (exports.family ?? exports.default) as Partial<BenchmarkFamily> | undefined;
  if (!candidate || typeof candidate.name !== 'string' || !Array.isArray(candidate.taskKinds))
    throw new FamilyLoadError(`"${module}" exports no benchmark family; ${HOW}`);
  return candidate as BenchmarkFamily;
}

async function importFamily(module: string, cwd: string): Promise<BenchmarkFamily> {
  let exports: Record<string, unknown>;
  try {
    exports = (await import(specifierOf(module, cwd))) as Record<string, unknown>;
  } catch (err) {
    throw new FamilyLoadError(`cannot load "${module}": ${(err as Error).message}; ${HOW}`);
  }
  return familyOf(module, exports);
}

// Loads the shipped families and those PRECIS_FAMILIES names, once per process: the CLI and every
// service call it before they start, so all of them plan, run and report the same families.
export async function loadFamilies(
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<FamilyRegistry> {
  const modules = familyModules(env);
  // `precis serve` boots services inside the CLI's process: the same list loads once.
  const key = `${cwd}|${modules.join(',')}`;
  if (loaded && loadedFrom === key) return loaded;
  loaded = modules.length === 0 ? builtInFamilies() : await extendedRegistry(modules, cwd);
  loadedFrom = key;
  return loaded;
}

async function extendedRegistry(modules: string[], cwd: string): Promise<FamilyRegistry> {
  const extra = await Promise.all(modules.map((m) => importFamily(m, cwd)));
  const names = [...SHIPPED_FAMILIES, ...extra].map((f) => f.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice !== undefined)
    throw new FamilyLoadError(
      `benchmark family "${twice}" is loaded twice (${modules.join(', ')}); name each family once`,
    );
  const extraKinds = extra.flatMap((f) => (f.datasetKinds ?? []).map((k) => k.name));
  try {
    return new FamilyRegistry([...SHIPPED_FAMILIES, ...extra], {
      datasetKinds: GENERIC_DATASET_KINDS,
      kindOrder: [...KIND_ORDER, ...extraKinds],
    });
  } catch (err) {
    throw new FamilyLoadError(`${(err as Error).message} (loading ${modules.join(', ')})`);
  }
}

// The families this process loaded (the shipped ones when PRECIS_FAMILIES is unset).
export function loadedFamilies(): FamilyRegistry {
  if (loaded) return loaded;
  if (familyModules(process.env).length > 0)
    throw new Error(
      `${FAMILIES_ENV} is set but loadFamilies() was not awaited before the families were used`,
    );
  return builtInFamilies();
}
