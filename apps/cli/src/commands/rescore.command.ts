import { rescoreBooookScoreFiles } from '@precis/family-books';
import { Command } from 'commander';
import type { CliContext } from '../context.js';
import { formatTable, printJson } from '../output.js';

export function rescoreCommand(ctx: CliContext): Command {
  const rescore = new Command('rescore').description(
    'compute metrics from existing annotations, without calling any judge',
  );
  rescore
    .command('booookscore')
    .description('BooookScore from published sentence annotations (METHODS.md §1.6 formats)')
    .requiredOption('--summaries <file>', 'JSON {"<id>": {"summary": "<text>", ...}, ...}')
    .requiredOption(
      '--annotations <file>',
      'JSON {"<id>": {"<sentence>": {"questions": "...", "types": [...]}, ...} | null, ...}',
    )
    .option('--seed <n>', 'bootstrap seed', '1')
    .option('--resamples <n>', 'bootstrap resamples', '1000')
    .option('--json', 'print as JSON')
    .action(
      (opts: { summaries: string; annotations: string; seed: string; resamples: string; json?: boolean }) => {
        const r = rescoreBooookScoreFiles(opts.summaries, opts.annotations, {
          seed: Number(opts.seed),
          resamples: Number(opts.resamples),
        });
        if (opts.json) return printJson(ctx, r);
        const lines = [
          `BooookScore (${r.producedBy}): ${r.systemScore.toFixed(2)} (bootstrap std ${r.bootstrapStd.toFixed(2)}, ${opts.resamples} resamples)`,
          '',
          formatTable(
            ['ID', 'SENTENCES', 'CONFUSING', 'SCORE'],
            r.summaries.map((s) => [
              s.id,
              String(s.sentences),
              String(s.confusing),
              s.score === null ? 'n/a (empty)' : s.score.toFixed(2),
            ]),
          ),
          '',
          `error types (share of sentences): ${
            Object.entries(r.errorTypesPct)
              .filter(([, v]) => v > 0)
              .map(([t, v]) => `${t} ${v.toFixed(1)}%`)
              .join(', ') || 'none'
          }`,
        ];
        if (r.unannotated.length)
          lines.push(`unannotated (counted as no confusion): ${r.unannotated.join(', ')}`);
        if (r.unmatchedAnnotations.length) {
          lines.push('annotated sentences matching no summary sentence (not counted):');
          for (const u of r.unmatchedAnnotations) lines.push(`  ${u.id}: ${JSON.stringify(u.sentence)}`);
        }
        if (r.unknownIds.length)
          lines.push(`annotations for ids not in the summaries file: ${r.unknownIds.join(', ')}`);
        ctx.stdout.write(`${lines.join('\n')}\n`);
      },
    );
  return rescore;
}
