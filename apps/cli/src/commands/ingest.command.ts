import { loadedFamilies } from '@precis/families';
import { Argument, Command } from 'commander';
import { type CliContext, withRuntime } from '../context.js';
import { formatCounts, printJson } from '../output.js';
import { importProgress } from '../progress.js';

interface IngestOptions {
  dataset: string;
  documents?: string;
  replace?: boolean;
  json?: boolean;
}

const STATUS_TEXT = {
  imported: 'imported',
  unchanged: 'unchanged (same file already imported under this name)',
  replaced: 'replaced',
} as const;

export function ingestCommand(ctx: CliContext): Command {
  return new Command('ingest')
    .description('import a dataset file (validated; all-or-nothing; re-importing the same file is a no-op)')
    .addArgument(new Argument('<kind>', 'importer to use').choices(importableKinds()))
    .argument(
      '<path>',
      'dataset file: KGDS.json, summeval-op.jsonl, a .txt/.md book, {id,text} JSONL, or the queries JSONL of persphere/retrieval',
    )
    .requiredOption('--dataset <name>', 'name to import the dataset under')
    .option(
      '--documents <path>',
      `${corpusKinds().join(' and ')}: the documents JSONL the queries retrieve from`,
    )
    .option('--replace', 'replace an existing dataset of that name imported from a different file')
    .option('--json', 'print the result as JSON')
    .action(async (kind: string, path: string, opts: IngestOptions, command: Command) => {
      await withRuntime(ctx, command, async (runtime) => {
        const progress = importProgress(ctx.stderr, `ingest ${opts.dataset}`);
        let result: Awaited<ReturnType<typeof runtime.ingestion.importDataset>>;
        try {
          result = await runtime.ingestion.importDataset({
            kind,
            path,
            ...(opts.documents === undefined ? {} : { documentsPath: opts.documents }),
            name: opts.dataset,
            replace: Boolean(opts.replace),
            onProgress: (p) => progress.update(p),
          });
        } finally {
          progress.stop();
        }
        if (opts.json) {
          printJson(ctx, { status: result.status, dataset: result.dataset });
          return;
        }
        ctx.stdout.write(
          `dataset ${result.dataset.name} (${result.dataset.kind}): ${STATUS_TEXT[result.status]} into ${runtime.target}\n` +
            `  ${formatCounts(result.dataset.counts)}\n`,
        );
      });
    });
}

// The kinds `precis ingest` reads: every registered kind with a parser, in registry order.
function importableKinds(): string[] {
  return [...loadedFamilies().datasetKinds.values()].filter((k) => k.parse).map((k) => k.name);
}

// The two-file kinds, which take --documents.
function corpusKinds(): string[] {
  return [...loadedFamilies().datasetKinds.values()].filter((k) => k.corpus).map((k) => k.name);
}
