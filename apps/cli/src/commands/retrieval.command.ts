import { createTypeOrmLlmStore, LlmClient, loadModelRegistry } from '@precis/llm';
import {
  evaluateRetrieval,
  type IndexEvent,
  IndexStore,
  llmEmbedder,
  parseRetriever,
  type RetrievalEvaluation,
  type RetrieverParams,
} from '@precis/retrievers';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { DataSource } from 'typeorm';
import { type CliContext, withDataSource } from '../context.js';
import { formatTable, printJson } from '../output.js';
import { resolveModelRegistry } from '../runtime/model-registry.js';

interface EvalOptions {
  dataset: string;
  retriever: string;
  k: number[];
  models?: string;
  k1?: number;
  b?: number;
  dimensions?: number;
  stopwords?: 'english' | 'none';
  stemmer?: 'porter' | 'none';
  lowercase?: boolean;
  json?: boolean;
}

function parseKs(value: string): number[] {
  const ks = value.split(',').map((s) => Number(s.trim()));
  if (ks.some((k) => !Number.isInteger(k) || k < 1))
    throw new InvalidArgumentError(`"${value}": give positive integers separated by commas, e.g. 10,20,100`);
  return [...new Set(ks)].sort((a, b) => a - b);
}

function parseNumber(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`"${value}" is not a non-negative number`);
  return n;
}

// `precis retrieval eval`: Recall@k and Cover@k of a retriever over an imported dataset.
export function retrievalCommand(ctx: CliContext): Command {
  const retrieval = new Command('retrieval').description('retrieval indexes and their evaluation');
  retrieval
    .command('eval')
    .description('Recall@k and Cover@k (percent) of a retriever over a persphere or retrieval dataset')
    .requiredOption('--dataset <name>', 'an imported persphere or retrieval dataset')
    .requiredOption('--retriever <name>', 'bm25, tfidf, lsa, dense:<embedding model> or rrf:<a>+<b>[+...]')
    .option('--k <list>', 'cut-offs, comma-separated', parseKs, [10, 20, 100])
    .option(
      '--models <file>',
      'model registry for dense retrievers (default: $PRECIS_MODELS, ./precis.models.yaml)',
    )
    .option('--k1 <n>', 'BM25 k1 (default 0.9)', parseNumber)
    .option('--b <n>', 'BM25 b (default 0.4)', parseNumber)
    .option('--dimensions <n>', 'LSA dimensions (default 100)', parseNumber)
    .addOption(new Option('--stopwords <set>', 'stop words of the analyzer').choices(['english', 'none']))
    .addOption(new Option('--stemmer <name>', 'stemmer of the analyzer').choices(['porter', 'none']))
    .option('--no-lowercase', 'keep letter case in the analyzer')
    .option('--json', 'print the result as JSON')
    .action(async (opts: EvalOptions, command: Command) => {
      await withDataSource(ctx, command, async (db) => {
        const result = await evaluate(ctx, db, opts);
        if (opts.json) printJson(ctx, result.evaluation);
        else ctx.stdout.write(evaluationText(result.evaluation, result.events));
      });
    });
  return retrieval;
}

async function evaluate(ctx: CliContext, db: DataSource, opts: EvalOptions) {
  const params: RetrieverParams = {};
  if (opts.k1 !== undefined) params.k1 = opts.k1;
  if (opts.b !== undefined) params.b = opts.b;
  if (opts.dimensions !== undefined) params.dimensions = opts.dimensions;
  if (opts.stopwords !== undefined) params.stopwords = opts.stopwords;
  if (opts.stemmer !== undefined) params.stemmer = opts.stemmer;
  if (opts.lowercase === false) params.lowercase = false;
  const spec = parseRetriever(opts.retriever, params);
  const registry = opts.models
    ? loadModelRegistry(opts.models)
    : resolveModelRegistry(undefined, ctx.env, ctx.cwd);
  const client = registry ? new LlmClient({ registry, store: createTypeOrmLlmStore(db) }) : undefined;
  const events: IndexEvent[] = [];
  const store = new IndexStore(db, {
    ...(client ? { embedder: llmEmbedder(client) } : {}),
    onIndex: (e) => {
      events.push(e);
      ctx.stderr.write(
        `index ${e.key}: ${e.action} over ${e.documents} documents in ${(e.ms / 1000).toFixed(1)} s\n`,
      );
    },
  });
  const evaluation = await evaluateRetrieval(db, store, {
    dataset: opts.dataset,
    retriever: spec,
    ks: opts.k,
  });
  return { evaluation, events };
}

function evaluationText(e: RetrievalEvaluation, events: IndexEvent[]): string {
  const rows = Object.keys(e.recall).map((k) => [
    k,
    e.recall[k]!.toFixed(2),
    e.cover ? e.cover[k]!.toFixed(2) : '-',
  ]);
  const lines = [
    `dataset ${e.dataset}: ${e.queries} queries; retriever ${e.retriever} (${e.retrieverKey})`,
    formatTable(['k', 'Recall@k %', 'Cover@k %'], rows),
    ...e.warnings.map((w) => `warning: ${w}`),
    ...events.map((i) => `index ${i.key}: ${i.action} (${(i.bytes / 1e6).toFixed(1)} MB)`),
  ];
  return `${lines.join('\n')}\n`;
}
