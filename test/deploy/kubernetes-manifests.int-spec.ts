// deploy/kubernetes rendered by `kubectl kustomize` for each overlay: every object valid against
// the Kubernetes and KEDA schemas (kubernetes-models), and the deployment's invariants.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { GATEWAY_ENV } from '@precis/api';
import { taskStream } from '@precis/contracts';
import { validateEnv } from '@precis/service';
import { Deployment } from 'kubernetes-models/apps/v1';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { parseAllDocuments } from 'yaml';
import { SUMMARIZATION_ENV } from '../../apps/summarization/src/config/summarization.env.js';
import { repoRoot } from '../e2e/runs-support.js';

type Obj = { apiVersion: string; kind: string; metadata: { name: string }; [k: string]: unknown };
// biome-ignore lint/suspicious/noExplicitAny: rendered manifests are read field by field
type Any = any;

const MODELS: Record<string, { new (data: Any): { validate(): void } }> = {
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};
const SERVICES = ['gateway', 'ingestion', 'retrieval', 'summarization', 'verifier', 'scoring'];
const SECRET_NAME = /KEY|PASSWORD|SECRET|TOKEN|DATABASE_URL/;

function render(overlay: string): Obj[] {
  const dir = resolve(repoRoot, 'deploy/kubernetes/overlays', overlay);
  let text: string;
  try {
    text = execFileSync('kubectl', ['kustomize', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (err) {
    const e = err as { code?: string; stderr?: string };
    throw new Error(
      e.code === 'ENOENT'
        ? 'kubectl is not installed: the manifest tests render with `kubectl kustomize` (kustomize is built in)'
        : `kubectl kustomize ${dir} failed: ${e.stderr ?? String(err)}`,
    );
  }
  return parseAllDocuments(text).map((d) => d.toJSON() as Obj);
}

const named = (objs: Obj[], kind: string, name: string): Any =>
  objs.find((o) => o.kind === kind && o.metadata.name === name);
const config = (objs: Obj[]): Record<string, string> =>
  (objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('precis-config-')) as Any).data;

it('the schema check refuses a malformed object, naming the field', () => {
  const broken = { metadata: { name: 'x' }, spec: { replicas: 'two', selector: {}, template: {} } };
  expect(() => new Deployment(broken as Any).validate()).toThrow('data/spec/replicas must be integer');
  expect(() => new ScaledObject({ metadata: { name: 'x' }, spec: {} } as Any).validate()).toThrow(
    'data/spec must have required property scaleTargetRef',
  );
});

describe.each(['dev', 'production'])('deploy/kubernetes/overlays/%s', (overlay) => {
  const objs = render(overlay);
  const services = SERVICES.map((s) => named(objs, 'Deployment', `precis-${s}`));

  it('renders objects that are valid against the Kubernetes and KEDA schemas', () => {
    for (const o of objs) {
      const model = MODELS[`${o.apiVersion}/${o.kind}`];
      expect([o.kind, o.metadata.name, model !== undefined]).toEqual([o.kind, o.metadata.name, true]);
      expect(() => new model!(o).validate()).not.toThrow();
    }
  });

  it('runs every service non-root on a read-only root filesystem, probed on its health endpoints', () => {
    const shutdownMs = Number(config(objs).SHUTDOWN_TIMEOUT_MS);
    for (const d of services) {
      const pod = d.spec.template.spec;
      expect([d.metadata.name, pod.securityContext.runAsNonRoot]).toEqual([d.metadata.name, true]);
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(shutdownMs);
      for (const c of [...pod.initContainers, ...pod.containers]) {
        expect(c.securityContext).toMatchObject({
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
        });
        expect(Object.keys(c.resources.requests).sort()).toEqual(['cpu', 'memory']);
        expect(Object.keys(c.resources.limits).sort()).toEqual(['cpu', 'memory']);
      }
      const service = pod.containers.find((c: Any) => c.name === 'service');
      expect(service.livenessProbe.httpGet).toEqual({ path: '/health/live', port: 'http' });
      expect(service.readinessProbe.httpGet).toEqual({ path: '/health/ready', port: 'http' });
    }
  });

  it('takes keys only from Secrets, by secretKeyRef', () => {
    for (const d of [...services, named(objs, 'Job', 'precis-migrate')])
      for (const c of [...(d.spec.template.spec.initContainers ?? []), ...d.spec.template.spec.containers])
        for (const e of c.env ?? [])
          if (SECRET_NAME.test(e.name))
            expect([d.metadata.name, e.name, e.value, e.valueFrom.secretKeyRef.name]).toEqual([
              d.metadata.name,
              e.name,
              undefined,
              expect.any(String),
            ]);
    expect(Object.keys(config(objs)).filter((k) => SECRET_NAME.test(k))).toEqual([]);
  });

  // The gateway preflights a submitted run's models as the workers call them: same keys.
  it('gives every service, the gateway included, each key variable the model registry names', () => {
    const registry = parseAllDocuments(
      readFileSync(resolve(repoRoot, 'deploy/kubernetes/base/models.yaml'), 'utf8'),
    )[0]!.toJSON() as { models: Record<string, { apiKeyEnv?: string }> };
    const variables = [...new Set(Object.values(registry.models).flatMap((m) => m.apiKeyEnv ?? []))];
    expect(variables.length).toBeGreaterThan(0);
    for (const d of services) {
      const env = d.spec.template.spec.containers.find((c: Any) => c.name === 'service').env as Any[];
      for (const variable of variables)
        expect([d.metadata.name, env.find((e) => e.name === variable)?.valueFrom.secretKeyRef.name]).toEqual([
          d.metadata.name,
          'precis-model-keys',
        ]);
    }
  });

  it('migrates in a Job before the services, which wait for the schema and never migrate', () => {
    const job = named(objs, 'Job', 'precis-migrate');
    expect(job.spec.template.spec.containers[0].command).toEqual(['node', 'packages/db/dist/migrate.js']);
    expect(config(objs).DATABASE_RUN_MIGRATIONS).toBe('false');
    for (const d of services)
      expect(d.spec.template.spec.initContainers[0].command).toEqual([
        'node',
        'packages/db/dist/migrate.js',
        '--wait',
      ]);
  });

  it('has a disruption budget per service and scales the verifier on its stream lag', () => {
    for (const s of SERVICES)
      expect(named(objs, 'PodDisruptionBudget', `precis-${s}`).spec).toEqual({
        maxUnavailable: 1,
        selector: { matchLabels: { 'app.kubernetes.io/name': `precis-${s}` } },
      });
    const scaled = named(objs, 'ScaledObject', 'precis-verifier');
    expect(scaled.spec.scaleTargetRef).toEqual({ name: 'precis-verifier' });
    expect(scaled.spec.triggers[0]).toMatchObject({
      type: 'nats-jetstream',
      metadata: { stream: taskStream('verify'), consumer: 'workers' },
    });
    expect([scaled.spec.minReplicaCount, scaled.spec.maxReplicaCount]).toEqual(
      overlay === 'dev' ? [1, 2] : [2, 32],
    );
  });

  it('turns summarizer plugins off until the operator lists their addresses', () => {
    expect(config(objs).PRECIS_PLUGIN_ADDRESSES).toBe('');
    for (const [name, schema] of [
      ['gateway', GATEWAY_ENV],
      ['summarization', SUMMARIZATION_ENV],
    ] as const)
      expect(validateEnv(name, schema, config(objs)).PRECIS_PLUGIN_ADDRESSES.off).toBe(true);
  });

  it('brings NATS and PostgreSQL in dev only; production expects its Secrets to exist', () => {
    const ours = objs.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name);
    expect(ours.includes('nats') && ours.includes('postgres')).toBe(overlay === 'dev');
    expect(objs.some((o) => o.kind === 'Secret')).toBe(overlay === 'dev');
  });

  // One image; each container's command picks its service (the lines test:containers runs).
  it('runs every service, init container and the Job from the one image, by command', () => {
    const image = 'ghcr.io/precis-benchmarks/precis:0.1.0';
    services.forEach((d, i) => {
      const pod = d.spec.template.spec;
      const service = pod.containers.find((c: Any) => c.name === 'service');
      expect([d.metadata.name, service.image, service.command]).toEqual([
        d.metadata.name,
        image,
        ['node', `apps/${SERVICES[i]}/dist/main.js`],
      ]);
      expect(pod.initContainers[0].image).toBe(image);
    });
    expect(named(objs, 'Job', 'precis-migrate').spec.template.spec.containers[0].image).toBe(image);
  });
});
