import { type RunContext, runTemplate } from '@precis/engine/family';
import { HEURISTIC_QUERY_SIMULATOR, simulateQueries } from '@precis/engines';
import { createRng } from '@precis/metrics';
import { OutputParseError, renderTemplate } from '@precis/prompts';
import type { SimulatedQueries } from '../payloads.js';
import { parseSimulatedQuery } from '../prompts/gor.parsers.js';
import { GOR_SIMULATE_TEMPLATE } from '../prompts/gor.templates.js';
import { GorTaskError, type StepContext } from './step-context.js';

// Draws per wanted question before giving up on more distinct ones.
const DRAWS_PER_QUERY = 3;

// METHODS.md §5.2 on a registry model: a seeded random chunk per draw, one question each (each
// draw its own cached call, at the system's temperature), until Q distinct questions.
async function modelQueries(s: StepContext, rnd: () => number): Promise<SimulatedQueries['queries']> {
  const chat = s.ctx.chat as NonNullable<RunContext['chat']>;
  const template = runTemplate(GOR_SIMULATE_TEMPLATE, s.spec.templateOverrides);
  const out: SimulatedQueries['queries'] = [];
  const seen = new Set<string>();
  let unparseable = 0;
  for (let draw = 0; draw < DRAWS_PER_QUERY * s.settings.queries && out.length < s.settings.queries; draw++) {
    const chunk = Math.floor(rnd() * s.chunks.length);
    const reply = await chat.chat({
      model: s.system.model!,
      messages: renderTemplate(template, { chunk: s.chunks[chunk]! }),
      temperature: s.system.params.temperature,
      // The system's own work: sampled at the model's own temperature where it takes no other.
      anyTemperature: true,
      runId: s.ref.runId,
      taskId: s.ref.id,
      templateVersion: `${template.version}#draw-${draw}`,
      cache: s.spec.cache,
    });
    try {
      const question = parseSimulatedQuery(reply.text, template.id);
      if (!seen.has(question.toLowerCase())) out.push({ question, chunk });
      seen.add(question.toLowerCase());
    } catch (err) {
      if (!(err instanceof OutputParseError)) throw err;
      unparseable++;
      s.ctx.logger.warn('unparseable GoR query', { taskId: s.ref.id, draw, error: err.message });
    }
  }
  if (out.length === 0)
    throw new GorTaskError(
      `model ${s.system.model} gave no parseable question in ${DRAWS_PER_QUERY * s.settings.queries} draws (${unparseable} unparseable)`,
    );
  return out;
}

// Seeded by the run seed and the meeting's dataset id (not its database id), so a fresh database
// draws the same chunks.
export async function simulateStep(s: StepContext): Promise<SimulatedQueries & { warnings: string[] }> {
  const rnd = createRng(`${s.spec.seed}:${s.meeting.externalId}:simulate`);
  const queries =
    s.system.model === undefined
      ? simulateQueries(s.chunks, s.settings.queries, rnd)
      : await modelQueries(s, rnd);
  if (queries.length === 0)
    throw new GorTaskError(`meeting ${s.meeting.externalId}: no question could be made`);
  const warnings =
    queries.length < s.settings.queries
      ? [`${queries.length} distinct questions of the ${s.settings.queries} asked`]
      : [];
  return {
    queries,
    simulator:
      s.system.model === undefined
        ? `engine:${HEURISTIC_QUERY_SIMULATOR} (heuristic)`
        : `model:${s.system.model}`,
    warnings,
  };
}
