// `npm run test:containers` on a machine where podman is missing and cannot be installed (here:
// nothing on PATH, so neither podman nor apt-get is found): one line saying what to do, exit 1,
// before anything is provisioned or built.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { repoRoot } from '../e2e/runs-support.js';

it('explains in one line what to install when podman is missing and cannot be installed', () => {
  const empty = mkdtempSync(join(tmpdir(), 'precis-no-path-'));
  try {
    const res = spawnSync(process.execPath, [join(repoRoot, 'scripts/test-containers.mjs')], {
      env: { PATH: empty },
      encoding: 'utf8',
    });
    expect(res.status).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /^npm run test:containers: podman(, runc)?(, debootstrap)?, podman-compose not installed, and installing needs root and apt-get: run `apt-get install -y podman runc debootstrap podman-compose` as root, or set PRECIS_SKIP_CONTAINERS=1 to leave the container test out of npm test$/,
      ),
    ]);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
