#!/usr/bin/env node
// Compiles one workspace's src/ into dist/ with swc (type checking is done once, at the root,
// by `npm run typecheck`). Spec files are skipped; non-TypeScript assets are copied as they are.
import { readFileSync } from 'node:fs';
import { cp, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformFile } from '@swc/core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const swcrc = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
delete swcrc.$schema;
const pkgDir = process.cwd();
const src = join(pkgDir, 'src');
const out = join(pkgDir, 'dist');

async function* walk(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(p);
    else yield p;
  }
}

await rm(out, { recursive: true, force: true });
let count = 0;
for await (const file of walk(src)) {
  const rel = relative(src, file);
  if (/\.(spec|int-spec)\.ts$/.test(rel) || rel.endsWith('.d.ts')) continue;
  if (rel.endsWith('.ts')) {
    const target = join(out, rel.replace(/\.ts$/, '.js'));
    const result = await transformFile(file, {
      ...swcrc,
      swcrc: false,
      filename: file,
      sourceFileName: relative(dirname(target), file),
    });
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, `${result.code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
    if (result.map) await writeFile(`${target}.map`, result.map);
    count++;
  } else {
    const target = join(out, rel);
    await mkdir(dirname(target), { recursive: true });
    await cp(file, target);
  }
}
console.log(`built ${relative(root, pkgDir)}: ${count} files`);
