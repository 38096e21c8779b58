// `node scripts/proto.mjs breaking` (a CI step) compares proto/ with the last release tag or the
// previous commit through buf's FILE rules. Here, on a copy of the contracts in a git repository of
// its own: an added field passes, a renumbered one is refused with the field named.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

const repo = resolve(import.meta.dirname, '../..');
const buf = join(repo, 'node_modules/.bin/buf');
const RUN_PROTO = 'proto/precis/v1/run.proto';

describe('breaking changes to the contracts', () => {
  let dir: string;
  const sh = (cmd: string, args: string[]) => spawnSync(cmd, args, { cwd: dir, encoding: 'utf8' });
  const breaking = () => sh(buf, ['breaking', '--against', '.git#ref=HEAD,subdir=.']);
  const edit = (change: (text: string) => string) =>
    writeFileSync(join(dir, RUN_PROTO), change(readFileSync(join(repo, RUN_PROTO), 'utf8')));

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'precis-proto-'));
    cpSync(join(repo, 'proto'), join(dir, 'proto'), { recursive: true });
    cpSync(join(repo, 'buf.yaml'), join(dir, 'buf.yaml'));
    for (const args of [
      ['init', '-q'],
      ['add', '.'],
      ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'contracts'],
    ])
      expect(sh('git', args).status).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('lets a field be added', () => {
    edit((t) => t.replace('  int64 resent = 4;\n}', '  int64 resent = 4;\n  int64 expired = 5;\n}'));
    expect(breaking().status).toBe(0);
  });

  it('refuses a renumbered field, naming it', () => {
    edit((t) => t.replace('  int64 resent = 4;', '  int64 resent = 6;'));
    const out = breaking();
    expect(out.status).not.toBe(0);
    expect(out.stdout + out.stderr).toMatch(/run\.proto:\d+:\d+:.*"resent"/);
  });
});
