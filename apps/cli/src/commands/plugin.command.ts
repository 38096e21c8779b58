import { PluginClient, PluginError, SummaryRole } from '@precis/plugins';
import { Command } from 'commander';
import type { CliContext } from '../context.js';

const SAMPLE = [
  'The keeper climbed the tower every evening at dusk. He trimmed the wick and polished the lens until it shone.',
  'One winter a storm cut the island off for nine days. Supplies ran low, but the light never failed.',
];
const BUDGET = 20;

// The inputs each role gets in the check (as a strategy would send them).
function sampleRequest(role: SummaryRole) {
  const merge = role === SummaryRole.SUMMARY_ROLE_MERGE;
  return {
    runId: 'plugin-check',
    taskId: `plugin-check:${SummaryRole[role]}`,
    role,
    texts: merge ? SAMPLE : [SAMPLE[0]!],
    priorContext: role === SummaryRole.SUMMARY_ROLE_UPDATE ? SAMPLE[1]! : '',
    budgetWords: role === SummaryRole.SUMMARY_ROLE_CLEAN ? 0 : BUDGET,
    params: {},
    documentId: 'plugin-check',
    level: merge ? 1 : 0,
    index: 0,
    system: 'plugin-check',
  };
}

const ALL_ROLES = Object.values(SummaryRole).filter(
  (r): r is SummaryRole => typeof r === 'number' && r !== SummaryRole.SUMMARY_ROLE_UNSPECIFIED,
);

// Calls Describe, then Summarize once per declared role, and says what is wrong with each answer.
async function check(address: string, timeoutMs: number): Promise<{ lines: string[]; ok: boolean }> {
  const client = new PluginClient(address);
  try {
    const who = await client.describe(timeoutMs);
    const lines = [
      `plugin ${address}: ${who.name} ${who.version}${who.description ? ` (${who.description})` : ''}`,
    ];
    let ok = true;
    if (!who.name) {
      ok = false;
      lines.push('FAIL  Describe: the name is empty (Precis reports it as the producer)');
    }
    const roles = who.roles.length ? who.roles : ALL_ROLES;
    for (const role of roles) {
      const label = SummaryRole[role] ?? String(role);
      try {
        const res = await client.summarize(sampleRequest(role), timeoutMs);
        const words = res.text.split(/\s+/).filter(Boolean).length;
        const problems = [
          ...(words === 0 ? ['the summary is empty'] : []),
          ...(!res.producer ? ['no producer named'] : []),
        ];
        const over =
          role !== SummaryRole.SUMMARY_ROLE_CLEAN && words > BUDGET
            ? ` (over the ${BUDGET}-word budget)`
            : '';
        if (problems.length) ok = false;
        lines.push(
          problems.length
            ? `FAIL  ${label}: ${problems.join('; ')}`
            : `ok    ${label}: ${words} words${over}, producer ${res.producer}`,
        );
      } catch (err) {
        ok = false;
        lines.push(`FAIL  ${label}: ${err instanceof PluginError ? err.message : String(err)}`);
      }
    }
    return { lines, ok };
  } finally {
    client.close();
  }
}

// `precis plugin check <address>`: tests a plugin against precis.v1.SummarizerService.
export function pluginCommand(ctx: CliContext): Command {
  const plugin = new Command('plugin').description('summarizer plugins (precis.v1.SummarizerService)');
  plugin
    .command('check')
    .description('call a plugin as a run would: Describe, then Summarize once per role it declares')
    .argument('<address>', 'host:port of the plugin')
    .option('--timeout-ms <n>', 'deadline of each call', '10000')
    .action(async (address: string, opts: { timeoutMs: string }) => {
      if (!/^[\w.-]+:\d{1,5}$/.test(address))
        throw new Error(`"${address}" is not host:port (e.g. 127.0.0.1:50170)`);
      const timeoutMs = Number(opts.timeoutMs);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 100)
        throw new Error(`--timeout-ms: expected an integer of at least 100, got "${opts.timeoutMs}"`);
      const result = await check(address, timeoutMs);
      ctx.stdout.write(`${result.lines.join('\n')}\n`);
      if (!result.ok) process.exitCode = 1;
    });
  return plugin;
}
