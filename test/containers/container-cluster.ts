// The six services and the migrations Job as podman containers of one image, with the command
// lines and environment the Kubernetes base gives them (rendered with `kubectl kustomize`), on
// host networking bound to 127.0.0.1: what `npm run test:containers` proves before a cluster
// sees the image. Run through scripts/test-containers.mjs, which builds the image (PRECIS_IMAGE).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { repoRoot, waitFor } from '../e2e/runs-support.js';

export const SERVICES = [
  'gateway',
  'ingestion',
  'retrieval',
  'summarization',
  'verifier',
  'scoring',
] as const;
export type Service = (typeof SERVICES)[number];

// What the Kubernetes base runs: each service's container command, its init container's command,
// its literal env and the shared config map; the migrations Job's command.
export interface Manifests {
  config: Record<string, string>;
  migrate: string[];
  services: Record<Service, { command: string[]; init: string[]; env: Record<string, string> }>;
}

// biome-ignore lint/suspicious/noExplicitAny: rendered manifests are read field by field
type Any = any;

export function renderBase(): Manifests {
  const text = execFileSync('kubectl', ['kustomize', resolve(repoRoot, 'deploy/kubernetes/base')], {
    encoding: 'utf8',
  });
  const objs: Any[] = parseAllDocuments(text).map((d) => d.toJSON());
  const find = (kind: string, name: string) => objs.find((o) => o.kind === kind && o.metadata.name === name);
  const config = objs.find(
    (o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('precis-config-'),
  ).data;
  const services = {} as Manifests['services'];
  for (const s of SERVICES) {
    const pod = find('Deployment', `precis-${s}`).spec.template.spec;
    const main = pod.containers.find((c: Any) => c.name === 'service');
    const env: Record<string, string> = {};
    for (const e of main.env ?? []) if (typeof e.value === 'string') env[e.name] = e.value;
    services[s] = { command: main.command, init: pod.initContainers[0].command, env };
  }
  const migrate = find('Job', 'precis-migrate').spec.template.spec.containers[0].command;
  return { config, migrate, services };
}

export function podman(args: string[]): { status: number; stdout: string; stderr: string } {
  const res = spawnSync('podman', ['--runtime', 'runc', ...args], { encoding: 'utf8' });
  return { status: res.status ?? -1, stdout: res.stdout.trim(), stderr: res.stderr.trim() };
}

function must(args: string[]): string {
  const res = podman(args);
  if (res.status !== 0) throw new Error(`podman ${args[0]} failed (exit ${res.status}): ${res.stderr}`);
  return res.stdout;
}

export interface ContainerOptions {
  image: string;
  label: string;
  // Files for /etc/precis (the model registry), mounted read-only as the config map is.
  etcDir: string;
}

// The flags every Precis container gets: the pods' securityContext (read-only root, /tmp as an
// emptyDir, no capabilities, no privilege escalation) and this machine's podman settings.
function runFlags(o: ContainerOptions, env: Record<string, string>): string[] {
  return [
    ...['--network', 'host', '--read-only', '--tmpfs', '/tmp:rw,size=256m'],
    ...['--cap-drop', 'ALL', '--security-opt', 'no-new-privileges'],
    ...['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1000:1000'],
    ...['--label', o.label, '-v', `${o.etcDir}:/etc/precis:ro`],
    // Specs name the example data by its path in the repository, as the test process sees it.
    ...['-v', `${join(repoRoot, 'examples')}:${join(repoRoot, 'examples')}:ro`],
    ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]),
  ];
}

// A one-off container (the Job, an init container): its exit status and output.
export function runOnce(o: ContainerOptions, command: string[], env: Record<string, string>) {
  return podman(['run', '--rm', ...runFlags(o, env), o.image, ...command]);
}

export function startContainer(
  o: ContainerOptions,
  name: string,
  command: string[],
  env: Record<string, string>,
): void {
  must(['run', '-d', '--name', name, ...runFlags(o, env), o.image, ...command]);
}

// Ready when the image's HEALTHCHECK passes (podman runs it on request: no systemd timers here).
export async function waitHealthy(name: string, timeoutMs = 90_000): Promise<number> {
  const t0 = Date.now();
  await waitFor(
    `container ${name} to pass its health check`,
    async () => {
      const state = podman(['inspect', '--format', '{{.State.Status}}', name]).stdout;
      if (state === 'exited')
        throw new Error(`container ${name} exited: ${podman(['logs', '--tail', '20', name]).stderr}`);
      return podman(['healthcheck', 'run', name]).status === 0;
    },
    timeoutMs,
    500,
  );
  return Date.now() - t0;
}

export const killContainer = (name: string) => must(['kill', '--signal', 'KILL', name]);
export const startAgain = (name: string) => must(['start', name]);
export const exec = (name: string, command: string[]) => podman(['exec', name, ...command]);
export const imageUser = (image: string) => must(['image', 'inspect', '--format', '{{.Config.User}}', image]);

export function writeModels(dir: string, registry: unknown): string {
  mkdirSync(dir, { recursive: true });
  // JSON is YAML: the file keeps the name the config map gives it (PRECIS_MODELS).
  writeFileSync(join(dir, 'models.yaml'), JSON.stringify(registry, null, 2));
  return dir;
}
