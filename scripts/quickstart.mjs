#!/usr/bin/env node
// `npm run quickstart`: builds Precis, then uses the `precis` command in embedded mode (PGlite
// under .precis/, no servers needed): imports the example data written for the project, lists
// it, and runs a small offline book benchmark end to end (summaries, BooookScore, leaderboard).
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const precis = join(root, 'apps', 'cli', 'bin', 'precis.js');

function sh(cmd, args) {
  console.log(`\n$ ${[cmd === process.execPath ? 'precis' : cmd, ...args].join(' ')}`);
  const res = spawnSync(cmd, cmd === process.execPath ? [precis, ...args] : args, {
    cwd: root,
    stdio: 'inherit',
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
}

sh('npx', ['turbo', 'run', 'build', '--output-logs=errors-only']);
const node = process.execPath;
sh(node, ['ingest', 'text', 'examples/data/the-lighthouse-keeper.md', '--dataset', 'example-book']);
sh(node, ['ingest', 'kgds', 'examples/data/town-council.kgds.json', '--dataset', 'example-kgds']);
sh(node, [
  'ingest',
  'summeval-op',
  'examples/data/product-reviews.summeval-op.jsonl',
  '--dataset',
  'example-reviews',
]);
sh(node, ['ingest', 'jsonl', 'examples/data/field-notes.jsonl', '--dataset', 'example-notes']);
sh(node, ['datasets', 'ls']);
sh(node, ['datasets', 'show', 'example-kgds']);
sh(node, ['run', 'examples/quickstart.yaml']);
sh(node, ['runs', 'ls']);
