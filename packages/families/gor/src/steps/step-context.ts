import {
  askParsed,
  type BenchmarkSpec,
  ConfigurationError,
  type RunContext,
  type SystemSpec,
  taskSystem,
} from '@precis/engine/family';
import type { PromptTemplate } from '@precis/prompts';
import { type GorSettings, gorSettings } from '../gor-spec.js';
import { loadMeeting, type Meeting, meetingChunks } from '../meeting.js';
import type { GorStepPayload } from '../payloads.js';

// Work no redelivery can fix: a reply that stayed unparseable, a meeting with nothing to rank.
export class GorTaskError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GorTaskError';
  }
}

export interface StepContext {
  ctx: RunContext;
  ref: { id: string; runId: string };
  // What a model call is charged to in the ledger.
  attach: { runId: string; taskId: string };
  spec: BenchmarkSpec;
  payload: GorStepPayload;
  system: SystemSpec;
  settings: GorSettings;
  meeting: Meeting;
  chunks: string[];
}

export async function loadStep(
  ctx: RunContext,
  ref: { id: string; runId: string },
  raw: Record<string, unknown>,
  spec: BenchmarkSpec,
): Promise<StepContext> {
  const payload = raw as unknown as GorStepPayload;
  const system = taskSystem(spec, payload.system, ref.id);
  const settings = gorSettings(system);
  const meeting = await loadMeeting(ctx.db, payload.documentId);
  const chunks = meetingChunks(meeting.text, settings.chunkTokens, settings.chunkOverlap);
  if (chunks.length === 0) throw new GorTaskError(`meeting ${meeting.externalId} has no text to chunk`);
  return {
    ctx,
    ref,
    attach: { runId: ref.runId, taskId: ref.id },
    spec,
    payload,
    system,
    settings,
    meeting,
    chunks,
  };
}

// The system's model answers a prompt, re-asked until the reply parses (then the task fails);
// the system's own work (responses, summary), so at the model's own temperature where need be.
export async function askSystem<T>(
  s: StepContext,
  template: PromptTemplate,
  vars: Record<string, string>,
  parse: (text: string, templateId: string) => T,
  temperature = 0,
): Promise<T> {
  if (s.system.model === undefined)
    throw new ConfigurationError(`task ${s.ref.id}: system ${s.system.name} has no model`);
  const call = {
    ctx: s.ctx,
    task: s.ref,
    model: s.system.model,
    temperature,
    anyTemperature: true,
    attempts: 3,
    cache: s.spec.cache,
    overrides: s.spec.templateOverrides,
    benchmark: 'GoR',
    role: 'system model',
    fail: (m: string) => new GorTaskError(m),
  };
  return (await askParsed(call, template, vars, parse)).value;
}

// Texts of the graph's nodes: the chunks, then the responses in order.
export const nodeTexts = (s: StepContext): string[] => [...s.chunks, ...(s.payload.graph?.responses ?? [])];
