import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// examples/gor.yaml's offline systems (5 QMSum meetings), embedded, through the CLI in a fresh
// directory (wall and CPU seconds of the whole process tree, training threads included), then the
// same command again (trained weights found and reused), with each system's ROUGE-L.
// Args: --systems <comma list> (default: the example's offline systems).

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = resolve(repo, 'apps/cli/dist/main.js');
const OFFLINE = 'gor,gor-untrained,bm25,tfidf,rrf,full-context,thought-retriever';

// CPU seconds of the finished children of this process (utime + stime from /proc).
function childrenCpu(): number {
  const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[13]) + Number(f[14])) / 100;
}

function cli(cwd: string, args: string[]): Promise<{ seconds: number; out: string }> {
  const started = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) =>
      code === 0
        ? done({ seconds: (performance.now() - started) / 1000, out })
        : fail(new Error(`precis ${args.join(' ')} exited with ${code}:\n${out.slice(-2000)}`)),
    );
  });
}

export async function run(args: string[]) {
  const i = args.indexOf('--systems');
  const systems = i === -1 ? OFFLINE : args[i + 1]!;
  const dir = mkdtempSync(join(tmpdir(), 'precis-gor-bench-'));
  try {
    const spec = resolve(repo, 'examples/gor.yaml');
    const cpu0 = childrenCpu();
    const first = await cli(dir, ['run', spec, '--systems', systems]);
    const cpu1 = childrenCpu();
    const again = await cli(dir, ['run', spec, '--systems', systems, '--fresh']);
    const runId = /started run ([0-9a-f-]+)/.exec(again.out)![1]!;
    const report = await cli(dir, ['report', runId, '--format', 'json']);
    const sections = JSON.parse(report.out).sections as { family: string; rows: unknown[] }[];
    const rows = sections.filter((s) => s.family === 'gor').flatMap((s) => s.rows) as {
      system: string;
      rouge: { rougeL: number } | null;
      training: { seconds: number; reused: boolean } | null;
    }[];
    const metrics: Record<string, number | string> = {
      'first run wall s': first.seconds,
      'first run CPU s (process tree)': cpu1 - cpu0,
      're-run wall s (weights reused)': again.seconds,
    };
    for (const r of rows) metrics[`${r.system} ROUGE-L %`] = r.rouge?.rougeL ?? 'n/a';
    for (const gor of rows.filter((r) => r.training))
      metrics[`${gor.system} training s (one model, all meetings), reused on re-run`] =
        `${gor.training!.seconds.toFixed(1)}, ${gor.training!.reused}`;
    return {
      name: 'gor-example',
      description: `precis run examples/gor.yaml --systems ${systems} embedded in a fresh directory (target < 600 s on 2 cores), then again with --fresh (weights reused); ROUGE-L by rouge-score, max over references`,
      metrics,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
