import { loadedFamilies } from '@precis/families';
import { Command, Option } from 'commander';
import { type CliContext, withRuntime } from '../context.js';
import { datasetDetails, datasetsTable, printJson } from '../output.js';

interface JsonOption {
  json?: boolean;
}

interface ListOptions extends JsonOption {
  kind?: string;
}

export function datasetsCommand(ctx: CliContext): Command {
  const datasets = new Command('datasets').description('list and inspect imported datasets');

  datasets
    .command('ls')
    .alias('list')
    .description('list imported datasets')
    .addOption(
      new Option('--kind <kind>', 'only datasets of this kind').choices([
        ...loadedFamilies().datasetKinds.keys(),
      ]),
    )
    .option('--json', 'print as JSON')
    .action(async (opts: ListOptions, command: Command) => {
      await withRuntime(ctx, command, async (runtime) => {
        const list = await runtime.ingestion.listDatasets({ kind: opts.kind });
        if (opts.json) printJson(ctx, list);
        else ctx.stdout.write(`${datasetsTable(list)}\n`);
      });
    });

  datasets
    .command('show')
    .description('show one dataset: kind, source file, sha256, creation time and counts')
    .argument('<name>', 'dataset name')
    .option('--json', 'print as JSON')
    .action(async (name: string, opts: JsonOption, command: Command) => {
      await withRuntime(ctx, command, async (runtime) => {
        const dataset = await runtime.ingestion.getDataset(name);
        if (opts.json) printJson(ctx, dataset);
        else ctx.stdout.write(`${datasetDetails(dataset)}\n`);
      });
    });

  return datasets;
}
