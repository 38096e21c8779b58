// docker-compose.yml as a user runs it (`cp .env.example .env`, adjust, `compose up`), under
// Debian's podman-compose: a project folder holding the repository's compose file unchanged and a
// .env made of .env.example plus the test's values.
import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../e2e/runs-support.js';

export interface ComposeProject {
  name: string;
  dir: string;
  // podman-compose with this machine's podman settings; throws with its output on failure.
  compose(args: string[]): string;
  container(service: string): string;
}

export function composeProject(name: string, dir: string, env: Record<string, string>, label: string) {
  copyFileSync(join(repoRoot, 'docker-compose.yml'), join(dir, 'docker-compose.yml'));
  const example = readFileSync(join(repoRoot, '.env.example'), 'utf8');
  const lines = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  writeFileSync(join(dir, '.env'), `${example}\n## npm run test:containers\n${lines.join('\n')}\n`);
  const project: ComposeProject = {
    name,
    dir,
    compose(args) {
      const res = spawnSync(
        'podman-compose',
        [
          ...['-p', name, '--podman-args', '--runtime runc'],
          ...['--podman-run-args', `--ulimit nofile=1024:1024 --ulimit nproc=1000:1000 --label ${label}`],
          ...args,
        ],
        { cwd: dir, encoding: 'utf8' },
      );
      if (res.status !== 0)
        throw new Error(
          `podman-compose ${args.join(' ')} failed (exit ${res.status}):\n${res.stdout}\n${res.stderr}`,
        );
      return res.stdout;
    },
    // podman-compose 1.0 names containers <project>_<service>_1.
    container: (service) => `${name}_${service}_1`,
  };
  return project;
}
