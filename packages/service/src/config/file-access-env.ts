import { realpathSync } from 'node:fs';
import { DEFAULT_MAX_FILE_BYTES, DEFAULT_READ_TIMEOUT_MS, type FileAccessPolicy } from '@precis/files';
import { int, str } from './env-schema.js';

// Variables of services that read dataset files for callers (the gateway for CreateRun specs,
// the ingestion service for ImportDataset): one policy, the same names everywhere.
export function fileAccessEnv() {
  return {
    INGEST_ROOT: str({
      optional: true,
      pattern: /^\//,
      patternHint: 'an absolute directory path',
      description:
        'the only directory dataset files are read from (after resolving symlinks); unset = this service reads no files',
    }),
    INGEST_MAX_FILE_BYTES: int({
      default: DEFAULT_MAX_FILE_BYTES,
      min: 1,
      max: DEFAULT_MAX_FILE_BYTES,
      description:
        'largest dataset file read, in bytes (at most 512 MiB: a larger text cannot be held in memory)',
    }),
    INGEST_READ_TIMEOUT_MS: int({
      default: DEFAULT_READ_TIMEOUT_MS,
      min: 100,
      max: 3_600_000,
      description: 'a dataset file not read within this long is refused (slow or stalled storage)',
    }),
  };
}

export type FileAccessEnvSchema = ReturnType<typeof fileAccessEnv>;

// Each root's symlinks are resolved once per process (by the first policy made for it), so a root
// given through a link (INGEST_ROOT=/data -> /mnt/volume) holds the files under its target.
const realRoots = new Map<string, string>();

function realRootOf(root: string): string | undefined {
  let real = realRoots.get(root);
  if (real === undefined) {
    try {
      real = realpathSync(root);
    } catch {
      // Missing for now: resolved per file, and each file is refused as not found.
      return undefined;
    }
    realRoots.set(root, real);
  }
  return real;
}

export function serverFilePolicy(config: {
  INGEST_ROOT?: string;
  INGEST_MAX_FILE_BYTES: number;
  INGEST_READ_TIMEOUT_MS: number;
}): FileAccessPolicy {
  const realRoot = config.INGEST_ROOT === undefined ? undefined : realRootOf(config.INGEST_ROOT);
  return {
    root: config.INGEST_ROOT ?? null,
    ...(realRoot === undefined ? {} : { realRoot }),
    maxBytes: config.INGEST_MAX_FILE_BYTES,
    timeoutMs: config.INGEST_READ_TIMEOUT_MS,
    settings: { root: 'INGEST_ROOT', maxBytes: 'INGEST_MAX_FILE_BYTES', timeoutMs: 'INGEST_READ_TIMEOUT_MS' },
  };
}
