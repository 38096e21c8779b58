// The memos family of test/fixtures/family-memos, as the tests load it: built from its own
// folder as its author would build it, named by path in PRECIS_FAMILIES.
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { repoRoot } from './runs-support.js';

export const MEMOS = resolve(repoRoot, 'test/fixtures/family-memos');
export const MEMOS_MODULE = join(MEMOS, 'dist/index.js');

export function buildMemosFamily(): void {
  execFileSync(process.execPath, [resolve(repoRoot, 'scripts/build-package.mjs')], { cwd: MEMOS });
}

// The registry of its spec's one model (`fake-writer`), at a fake server.
export const memosModels = (baseURL: string) => ({
  models: { 'fake-writer': { baseURL, model: 'fake-memo-writer', contextWindow: 16000, maxConcurrency: 8 } },
});
