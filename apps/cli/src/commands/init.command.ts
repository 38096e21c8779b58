import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import type { CliContext } from '../context.js';

// The example specs and data: beside the installed package's dist/, or the repository's examples/.
const CANDIDATES = ['../../examples', '../../../../examples'].map((p) =>
  fileURLToPath(new URL(p, import.meta.url)),
);

export function examplesDir(candidates = CANDIDATES): string {
  const found = candidates.find((dir) => existsSync(join(dir, 'quickstart.yaml')));
  if (!found)
    throw new Error(`the examples are missing (looked in ${candidates.join(', ')}): reinstall Precis`);
  return found;
}

function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(join(dir, e.name), base) : [relative(base, join(dir, e.name))],
  );
}

// Specs reading the datasets beside a repository checkout (../../shared) are of no use elsewhere.
const SHARED_DATA = /^\s*path: \.\.\/\.\.\/shared\//m;
const selfContained = (file: string) =>
  !file.endsWith('.yaml') || !SHARED_DATA.test(readFileSync(file, 'utf8'));

// Copies every example file into `target`; refuses before writing anything if one exists there.
export function writeExamples(source: string, target: string): string[] {
  const files = filesUnder(source)
    .filter((f) => selfContained(join(source, f)))
    .sort();
  const taken = files.filter((f) => existsSync(join(target, f)));
  if (taken.length > 0) {
    const shown = taken.slice(0, 5).join(', ') + (taken.length > 5 ? `, and ${taken.length - 5} more` : '');
    throw new Error(
      `${target} already has ${shown}: nothing was written; give another directory, or remove them`,
    );
  }
  for (const f of files) {
    mkdirSync(dirname(join(target, f)), { recursive: true });
    cpSync(join(source, f), join(target, f));
  }
  return files;
}

// `precis init [dir]`: the example specs and their data, to run and to copy from.
export function initCommand(ctx: CliContext): Command {
  return new Command('init')
    .description('write the example specs and their data into a directory (default ./precis-examples)')
    .argument('[dir]', 'where to write them', 'precis-examples')
    .action((dir: string) => {
      const target = resolve(ctx.cwd, dir);
      const files = writeExamples(examplesDir(), target);
      const shown = relative(ctx.cwd, target) || '.';
      ctx.stdout.write(
        `wrote ${files.length} files to ${shown}/ (${files.filter((f) => f.endsWith('.yaml')).length} specs)\n` +
          'next:\n' +
          `  precis run ${join(shown, 'quickstart.yaml')}        an offline book benchmark, no model needed\n` +
          '  precis report <run> --format html --out report.html\n' +
          '  precis serve                              the leaderboard page and the REST API\n' +
          `The other specs use the models in ${join(shown, 'models.yaml')}: point them at your endpoints.\n`,
      );
    });
}
