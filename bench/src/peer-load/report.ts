import { idealMs, type JobOptions } from './job.js';
import { seconds, type VariantResult } from './measure.js';

type Metrics = Record<string, number | string>;

const COLUMNS = [
  'variant',
  'wall s',
  'job s',
  '1st call s',
  'calls window s',
  'after last s',
  'calls',
  'judge calls',
  'max active',
  'fake CPU s',
  'wall/ideal',
  'parsed',
] as const;

function row(v: VariantResult, ideal: number): string[] {
  const { server } = v;
  const window =
    server.firstCallMs === null || server.lastAnswerMs === null
      ? null
      : server.lastAnswerMs - server.firstCallMs;
  return [
    v.label,
    seconds(v.wallMs),
    seconds(v.jobMs),
    seconds(server.firstCallMs),
    seconds(window),
    seconds(server.lastAnswerMs === null ? null : v.wallMs - server.lastAnswerMs),
    String(server.calls),
    String(server.judgeCalls),
    String(server.maxActive),
    server.fakeCpuSeconds === null ? 'n/a' : server.fakeCpuSeconds.toFixed(1),
    (v.wallMs / ideal).toFixed(2),
    v.parsed,
  ];
}

// The figures as an aligned text table (stderr), one row per tool/setting.
export function figuresTable(variants: VariantResult[], job: JobOptions, calls: number): string {
  const ideal = idealMs(calls, job);
  const rows = [[...COLUMNS], ...variants.map((v) => row(v, ideal))];
  const widths = COLUMNS.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(rows[0]!), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

export function variantMetrics(v: VariantResult, job: JobOptions, calls: number): Metrics {
  const ideal = idealMs(calls, job);
  const [, wall, jobS, first, window, after, all, judge, maxActive, fakeCpu, ratio, parsed] = row(v, ideal);
  const m: Metrics = {
    [`${v.label}: wall s (whole command)`]: Number(wall),
    [`${v.label}: job s (${v.jobSource})`]: jobS === 'n/a' ? 'n/a' : Number(jobS),
    [`${v.label}: first judge call / judge calls window / after last answer s`]: `${first}, ${window}, ${after}`,
    [`${v.label}: calls at the fake server (all, judge), max active`]: `${all}, ${judge}, ${maxActive}`,
    // The fake server shares the 2 cores: its CPU (token counting per request) is not the tool's.
    [`${v.label}: fake server CPU s`]: fakeCpu === 'n/a' ? 'n/a' : Number(fakeCpu),
    [`${v.label}: wall / ideal`]: Number(ratio),
    [`${v.label}: replies parsed into a score`]: parsed!,
  };
  v.notes.forEach((note, i) => {
    m[`${v.label}: note ${i + 1}`] = note;
  });
  return m;
}

const ratio = (a: VariantResult | undefined, b: VariantResult | undefined) =>
  a && b ? Number((a.wallMs / b.wallMs).toFixed(2)) : 'n/a';

// promptfoo's wall time over Precis's, with the issue's targets.
export function ratioMetrics(
  embedded: VariantResult | undefined,
  cluster: VariantResult | undefined,
  promptfoo: VariantResult[],
): Metrics {
  const byDefault = promptfoo.find((v) => v.label.startsWith('promptfoo default'));
  const best = [...promptfoo].sort((a, b) => a.wallMs - b.wallMs)[0];
  return {
    'promptfoo best setting': best?.label ?? 'n/a',
    'promptfoo default / precis embedded (target >= 15)': ratio(byDefault, embedded),
    'promptfoo best / precis embedded (target >= 2.5)': ratio(best, embedded),
    'promptfoo default / precis cluster': ratio(byDefault, cluster),
    'promptfoo best / precis cluster': ratio(best, cluster),
  };
}

// Every variant must have sent the same judge calls; Precis adds its one preflight call.
export function callsCheck(variants: VariantResult[]): string {
  const judge = new Set(variants.map((v) => v.server.judgeCalls));
  const extra = variants
    .filter((v) => v.server.calls !== v.server.judgeCalls)
    .map((v) => `${v.label} +${v.server.calls - v.server.judgeCalls}`);
  const same =
    judge.size === 1 ? `equal (${[...judge][0]} judge calls each)` : `DIFFER: ${[...judge].join(' vs ')}`;
  return `${same}${extra.length ? `; preflight calls besides: ${extra.join(', ')}` : ''}`;
}
