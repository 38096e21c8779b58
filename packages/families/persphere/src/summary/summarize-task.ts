import {
  type BenchmarkSpec,
  ConfigurationError,
  type RunContext,
  runTemplate,
  type SystemSpec,
  type TaskKind,
  taskSystem,
} from '@precis/engine/family';
import { LEAD_ENGINE, leadPerspectiveSummary, mergePerspectiveSummaries } from '@precis/engines';
import { OutputParseError, type PromptTemplate, renderTemplate } from '@precis/prompts';
import {
  type PersphereSummary,
  parsePersphereSummary,
  renderPersphereSummaryXml,
} from '../prompts/persphere.parsers.js';
import {
  formatPersphereDocuments,
  PERSPHERE_EDITOR_TEMPLATE,
  PERSPHERE_LOCAL_TEMPLATE,
  PERSPHERE_SUMMARY_TEMPLATE,
} from '../prompts/persphere.templates.js';
import { corpusTexts, loadQuery, type PersphereQuery } from '../query.js';
import type { PersphereSummaryPayload, SummaryMode } from './persphere-strategy.js';

export const PERSPHERE_ATTEMPTS = 3;

// Work no redelivery can fix: a reply that stayed unparseable, a query with nothing retrieved.
export class PersphereTaskError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PersphereTaskError';
  }
}

const TEMPLATES: Record<SummaryMode, PromptTemplate> = {
  vanilla: PERSPHERE_SUMMARY_TEMPLATE,
  local: PERSPHERE_LOCAL_TEMPLATE,
  editor: PERSPHERE_EDITOR_TEMPLATE,
};

function offlineSummary(
  query: PersphereQuery,
  p: PersphereSummaryPayload,
  docs: { id: string; text: string }[],
) {
  if (p.mode !== 'editor') return leadPerspectiveSummary(query.text, docs) as PersphereSummary;
  return mergePerspectiveSummaries(
    (p.locals ?? []).map((xml) => parsePersphereSummary(xml, p.docIds)),
  ) as PersphereSummary;
}

async function modelSummary(
  ctx: RunContext,
  ref: { id: string; runId: string },
  system: SystemSpec,
  spec: BenchmarkSpec,
  vars: Record<string, string>,
  p: PersphereSummaryPayload,
): Promise<{ summary: PersphereSummary; attempts: number }> {
  if (!ctx.chat)
    throw new ConfigurationError(
      `system ${system.name} needs model ${system.model}, but no model registry is configured`,
    );
  const template = runTemplate(TEMPLATES[p.mode], spec.templateOverrides);
  let last = '';
  for (let attempt = 0; attempt < PERSPHERE_ATTEMPTS; attempt++) {
    const reply = await ctx.chat.chat({
      model: system.model!,
      messages: renderTemplate(template, vars),
      temperature: system.params.temperature,
      // A summary can be sampled at the model's own temperature (reasoning models take only theirs).
      anyTemperature: true,
      ...(system.params.maxTokens === undefined ? {} : { maxTokens: system.params.maxTokens }),
      runId: ref.runId,
      taskId: ref.id,
      templateVersion: attempt === 0 ? template.version : `${template.version}#reask-${attempt}`,
      cache: spec.cache,
    });
    try {
      return { summary: parsePersphereSummary(reply.text, p.docIds, template.id), attempts: attempt + 1 };
    } catch (err) {
      if (!(err instanceof OutputParseError)) throw err;
      last = err.message;
      ctx.logger.warn('unparseable PerSphere summary', { taskId: ref.id, attempt, error: err.message });
    }
  }
  throw new PersphereTaskError(
    `model ${system.model} gave no parseable summary in ${PERSPHERE_ATTEMPTS} attempts; last: ${last}`,
  );
}

// A vanilla summary, one local agent's, or the editor's merge of the local ones; the stored text
// is the canonical XML.
export const persphereSummaryKind: TaskKind = {
  kind: 'persphere-summary',
  stage: 'summarize',
  async handle(ctx, ref, raw, spec) {
    const p = raw as unknown as PersphereSummaryPayload;
    const system = taskSystem(spec, p.system, ref.id);
    const query = await loadQuery(ctx.db, p.documentId);
    if (p.docIds.length === 0)
      throw new PersphereTaskError(
        `query ${query.externalId}: the retriever returned no document to summarize`,
      );
    const docs = p.mode === 'editor' ? [] : await corpusTexts(ctx.db, query.corpus.datasetId, p.docIds);
    let summary: PersphereSummary;
    let attempts = 1;
    if (system.engine !== undefined) summary = offlineSummary(query, p, docs);
    else {
      const vars: Record<string, string> =
        p.mode === 'editor'
          ? { query: query.text, summaries: (p.locals ?? []).join('\n\n') }
          : { query: query.text, documents: formatPersphereDocuments(docs) };
      ({ summary, attempts } = await modelSummary(ctx, ref, system, spec, vars, p));
    }
    const producer = system.model !== undefined ? `model:${system.model}` : `engine:${LEAD_ENGINE}`;
    return {
      result: {
        text: renderPersphereSummaryXml(summary),
        generations: attempts,
        cut: false,
        producer,
        mode: p.mode,
      },
    };
  },
};
