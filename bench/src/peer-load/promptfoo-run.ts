import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { FakeRequestRecord } from '@precis/testing';
import { type JobOptions, matchingPrompts, scratch } from './job.js';
import {
  childEnv,
  failIfNonZero,
  log,
  serverView,
  startFake,
  timedCommand,
  type VariantResult,
} from './measure.js';
import type { PromptfooInstall } from './promptfoo-install.js';

// Precis's score parser (packages/families/opinion/src/prompts/score.parser.ts) as a promptfoo
// assertion: exactly one <score>N</score>, nothing after it, an integer 1-5.
const ASSERT_SCORE = `module.exports = (output) => {
  const text = String(output);
  const tags = [...text.matchAll(/<score>([\\s\\S]*?)<\\/score>/gi)];
  if (tags.length !== 1) return { pass: false, score: 0, reason: tags.length + ' <score> tags' };
  const tag = tags[0];
  if (text.slice(tag.index + tag[0].length).trim() !== '') return { pass: false, score: 0, reason: 'text after </score>' };
  const raw = tag[1].trim();
  const value = Number(raw);
  if (!/^\\d+$/.test(raw) || value < 1 || value > 5) return { pass: false, score: 0, reason: 'score ' + raw };
  return { pass: true, score: 1, reason: 'score ' + value };
};
`;

interface Body {
  model: string;
  messages: { role: string; content: string }[];
  temperature?: number;
  max_tokens?: number;
}

function uniform<T>(values: T[], what: string): T {
  const distinct = new Set(values.map((v) => JSON.stringify(v)));
  if (distinct.size !== 1)
    throw new Error(
      `promptfoo config: Precis's judge requests differ in ${what} (${[...distinct].join(', ')})`,
    );
  return values[0]!;
}

// One promptfoo test per request Precis sent: the messages as variables of one chat prompt, the
// provider at the same endpoint with the same temperature and max_tokens (omitDefaults: nothing
// else added), and the score parsed from every reply.
export function promptfooConfig(requests: FakeRequestRecord[], baseURL: string): Record<string, unknown> {
  const bodies = requests.map((r) => r.body as Body);
  const roles = uniform(
    bodies.map((b) => b.messages.map((m) => m.role)),
    'message roles',
  );
  const prompt = JSON.stringify(roles.map((role, i) => ({ role, content: `{{m${i}}}` })));
  const temperature = uniform(
    bodies.map((b) => b.temperature ?? null),
    'temperature',
  );
  const maxTokens = uniform(
    bodies.map((b) => b.max_tokens ?? null),
    'max_tokens',
  );
  const model = uniform(
    bodies.map((b) => b.model),
    'model',
  );
  return {
    description: 'precis peer-load: the judge calls of one Precis run',
    prompts: [prompt],
    providers: [
      {
        id: `openai:chat:${model}`,
        config: {
          apiBaseUrl: baseURL,
          apiKey: 'fake-key',
          omitDefaults: true,
          ...(temperature === null ? {} : { temperature }),
          ...(maxTokens === null ? {} : { max_tokens: maxTokens }),
        },
      },
    ],
    defaultTest: { assert: [{ type: 'javascript', value: 'file://assert-score.cjs' }] },
    tests: bodies.map((b) => ({
      vars: Object.fromEntries(b.messages.map((m, i) => [`m${i}`, m.content])),
    })),
  };
}

// "Duration: 1m 5s (concurrency: 4)" -> { ms: 65000, concurrency: 4 }
export function parseSummary(stdout: string) {
  const plain = stripVTControlCharacters(stdout);
  const count = (label: string) => {
    const m = new RegExp(`([\\d,]+) ${label}`).exec(plain);
    return m ? Number(m[1]!.replaceAll(',', '')) : null;
  };
  const d = /Duration: ((?:\d+h )?(?:\d+m )?\d+s) \(concurrency: (\d+)\)/.exec(plain);
  let ms: number | null = null;
  if (d) {
    const part = (u: string) => Number(new RegExp(`(\\d+)${u}`).exec(d[1]!)?.[1] ?? 0);
    ms = (part('h') * 3600 + part('m') * 60 + part('s')) * 1000;
  }
  return {
    passed: count('passed'),
    failed: count('failed'),
    errors: count('errors?'),
    durationMs: ms,
    concurrency: d ? Number(d[2]) : null,
  };
}

// What it logged when it failed: its error log, and where a copy of its logs was kept.
function failureLogs(configDir: string): string {
  const logs = join(configDir, 'logs');
  if (!existsSync(logs)) return 'no promptfoo logs were written';
  const kept = mkdtempSync(join(tmpdir(), 'precis-peer-load-promptfoo-logs-'));
  cpSync(logs, kept, { recursive: true });
  const errors = readdirSync(logs)
    .filter((f) => f.includes('error'))
    .map((f) => readFileSync(join(logs, f), 'utf8').trim())
    .filter(Boolean)
    .join('\n')
    .slice(-2000);
  return `its error log: ${errors || '(empty)'}; its logs are kept in ${kept}`;
}

// What it left on disk by default: its result database and its log files.
function storedMb(configDir: string): { dbMb: number; logMb: number } {
  const size = (file: string) => (existsSync(file) ? statSync(file).size / 1e6 : 0);
  const logs = join(configDir, 'logs');
  const files = existsSync(logs) ? readdirSync(logs).map((f) => join(logs, f)) : [];
  return { dbMb: size(join(configDir, 'promptfoo.db')), logMb: files.reduce((n, f) => n + size(f), 0) };
}

function promptfooEnv(home: string, configDir: string): Record<string, string> {
  return childEnv({
    HOME: home,
    PROMPTFOO_CONFIG_DIR: configDir,
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_DISABLE_SHARING: '1',
    OPENAI_API_KEY: 'fake-key',
  });
}

// One `promptfoo eval` as its own process on promptfoo's Node, on a fresh config dir (its SQLite
// result store and logs; nothing cached), at `concurrency` (-j) or at its default when null.
async function promptfooOnce(
  install: PromptfooInstall,
  job: JobOptions,
  requests: FakeRequestRecord[],
  concurrency: number | null,
): Promise<VariantResult> {
  const fake = await startFake(job);
  const dir = scratch('promptfoo');
  const label = concurrency === null ? 'promptfoo default' : `promptfoo -j ${concurrency}`;
  try {
    dir.write('assert-score.cjs', ASSERT_SCORE);
    const config = dir.write('promptfooconfig.json', promptfooConfig(requests, fake.baseURL));
    const configDir = join(dir.dir, '.promptfoo');
    const args = ['eval', '-c', config, '--no-cache', '--no-table', '--no-progress-bar'];
    if (concurrency !== null) args.push('-j', String(concurrency));
    log(`${label}: ${requests.length} tests`);
    const res = await timedCommand(install.node, [install.cli, ...args], {
      cwd: dir.dir,
      env: promptfooEnv(dir.dir, configDir),
      label,
    });
    if (res.code !== 0) res.stderr += `\n${failureLogs(configDir)}`;
    failIfNonZero(res, `promptfoo eval (${install.node} ${install.cli} ${args.join(' ')})`);
    const server = await serverView(fake, res.startedAt);
    const summary = parseSummary(res.stdout);
    const unparsed = summary.passed === null || summary.durationMs === null;
    // Keep what it printed when its summary is not where expected, to say why in the notes.
    const tail = stripVTControlCharacters(`${res.stdout}\n${res.stderr}`)
      .trim()
      .split('\n')
      .slice(-6)
      .join(' | ');
    if (unparsed) log(`${label}: no results summary in its output; it ended with: ${tail}`);
    const { dbMb, logMb } = storedMb(configDir);
    const same = matchingPrompts(requests, server.requests);
    log(
      `${label}: ${(res.wallMs / 1000).toFixed(2)} s, ${server.judgeCalls} calls, ${summary.passed} passed`,
    );
    return {
      label: concurrency === null ? `${label} (-j ${summary.concurrency ?? '?'})` : label,
      wallMs: res.wallMs,
      jobMs: summary.durationMs,
      jobSource: 'its "Duration:" line (whole seconds)',
      server,
      parsed: `${summary.passed ?? '?'}/${(summary.passed ?? 0) + (summary.failed ?? 0) + (summary.errors ?? 0)}`,
      notes: [
        `${same}/${requests.length} requests identical to Precis's (model, messages, temperature, max_tokens)`,
        `results stored in ${dbMb.toFixed(1)} MB of SQLite (promptfoo.db in PROMPTFOO_CONFIG_DIR); ${logMb.toFixed(1)} MB of log files written (its default debug log)`,
        ...(unparsed ? [`no results summary printed; output ended: ${tail}`] : []),
      ],
    };
  } finally {
    await fake.close();
    dir.remove();
  }
}

// A promptfoo run that exits non-zero is run once more (the failure is kept in the notes): one
// crash of the peer should not lose the other figures.
export async function runPromptfoo(
  install: PromptfooInstall,
  job: JobOptions,
  requests: FakeRequestRecord[],
  concurrency: number | null,
): Promise<VariantResult> {
  try {
    return await promptfooOnce(install, job, requests, concurrency);
  } catch (err) {
    const message = (err as Error).message;
    const at = message.indexOf('--- its stderr');
    const first = (at < 0 ? message : message.slice(at, message.indexOf('--- its stdout'))).replaceAll(
      '\n',
      ' | ',
    );
    log(
      `promptfoo ${concurrency === null ? 'default' : `-j ${concurrency}`} failed, running it once more: ${first}`,
    );
    const again = await promptfooOnce(install, job, requests, concurrency);
    again.notes.push(`the first attempt failed: ${first}`);
    return again;
  }
}
