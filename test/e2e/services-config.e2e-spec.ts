// The deployment files agree with the services: .env.example lists every variable each service
// reads, and docker-compose.yml (YAML syntax, merge keys resolved) gives every service the one image,
// the image's healthcheck and an environment that passes that service's own validation.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { GATEWAY_ENV } from '@precis/api';
import { type EnvSchema, validateEnv } from '@precis/service';
import { parse } from 'yaml';
import { INGESTION_ENV } from '../../apps/ingestion/src/config/ingestion.env.js';
import { RETRIEVAL_ENV } from '../../apps/retrieval/src/config/retrieval.env.js';
import { SCORING_ENV } from '../../apps/scoring/src/config/scoring.env.js';
import { SUMMARIZATION_ENV } from '../../apps/summarization/src/config/summarization.env.js';
import { VERIFIER_ENV } from '../../apps/verifier/src/config/verifier.env.js';

const repoRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');
const SCHEMAS: Record<string, EnvSchema> = {
  gateway: GATEWAY_ENV,
  ingestion: INGESTION_ENV,
  retrieval: RETRIEVAL_ENV,
  summarization: SUMMARIZATION_ENV,
  verifier: VERIFIER_ENV,
  scoring: SCORING_ENV,
};

interface ComposeService {
  build?: { dockerfile?: string; args?: Record<string, string> };
  image?: string;
  command?: string[];
  read_only?: boolean;
  tmpfs?: string[];
  env_file?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test?: string[] };
  depends_on?: Record<string, { condition: string }>;
}

const envExample = readFileSync(resolve(repoRoot, '.env.example'), 'utf8');
const composeText = readFileSync(resolve(repoRoot, 'docker-compose.yml'), 'utf8');
const compose = parse(composeText, { merge: true }) as { services: Record<string, ComposeService> };

// `${NAME:-default}` -> default, as docker compose does when NAME is unset.
function substituteDefaults(value: string): string {
  return String(value).replace(
    /\$\{([A-Z0-9_]+)(?::-([^}]*))?\}/g,
    (_m, _name, dflt: string | undefined) => dflt ?? '',
  );
}

describe('.env.example', () => {
  const listed = new Set([...envExample.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));

  it.each(Object.keys(SCHEMAS))('lists every variable %s reads', (service) => {
    const missing = Object.keys(SCHEMAS[service]!).filter((name) => !listed.has(name));
    expect(missing).toEqual([]);
  });

  it('lists every variable docker-compose.yml substitutes', () => {
    const substituted = new Set([...composeText.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => m[1]));
    expect([...substituted].filter((name) => !listed.has(name))).toEqual([]);
  });
});

describe('docker-compose.yml', () => {
  it('runs PostgreSQL, NATS with JetStream on a volume, and the six services', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      [
        'gateway',
        'ingestion',
        'nats',
        'postgres',
        'retrieval',
        'scoring',
        'summarization',
        'verifier',
      ].sort(),
    );
    const nats = compose.services.nats as ComposeService & { command: string[]; volumes: string[] };
    expect(nats.command).toContain('-js');
    expect(nats.volumes.some((v) => v.endsWith(':/data'))).toBe(true);
  });

  it.each(Object.keys(SCHEMAS))(
    'runs %s from the one image by its command, read-only, healthy by the image check',
    (name) => {
      const svc = compose.services[name]!;
      expect(svc.build?.dockerfile).toBe('Dockerfile');
      expect([substituteDefaults(svc.image ?? ''), svc.command, svc.read_only, svc.tmpfs]).toEqual([
        'precis:local',
        ['node', `apps/${name}/dist/main.js`],
        true,
        ['/tmp'],
      ]);
      // The image's HEALTHCHECK (podman-compose 1.0 garbles a CMD list holding quotes).
      expect(svc.healthcheck).toBeUndefined();
      expect(Object.keys(svc.depends_on ?? {}).length).toBeGreaterThan(0);
    },
  );

  // The gateway preflights a submitted run's models as the workers call them: same keys.
  it('gives every service that reads PRECIS_MODELS, the gateway included, the model keys in .env', () => {
    const readers = Object.keys(SCHEMAS).filter((n) => compose.services[n]!.environment?.PRECIS_MODELS);
    expect(readers).toContain('gateway');
    for (const name of readers) expect([name, compose.services[name]!.env_file]).toEqual([name, ['.env']]);
  });

  it.each(Object.keys(SCHEMAS))('gives %s an environment its own validation accepts', (name) => {
    const env = Object.fromEntries(
      Object.entries(compose.services[name]!.environment ?? {}).map(([k, v]) => [k, substituteDefaults(v)]),
    );
    const unknown = Object.keys(env).filter((k) => !(k in SCHEMAS[name]!));
    expect(unknown).toEqual([]);
    expect(() => validateEnv(name, SCHEMAS[name]!, env)).not.toThrow();
  });
});
