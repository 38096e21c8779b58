import type { RunContext, SystemSpec, TemplateOverrides } from '@precis/engine/family';
import { ConfigurationError, resolveTemplate } from '@precis/engine/family';
import { renderTemplate } from '@precis/prompts';
import type { SummarizeStepPayload, SummarizeStepResult } from '../payloads.js';
import { executeStep } from '../strategies/execute-step.js';
import { booksParamsOf } from './books-params.js';
import { runPluginStep } from './plugin-step.js';
import { runEngineStep } from './summary-engines.js';

export async function summarizeStep(
  ctx: RunContext,
  task: { id: string; runId: string },
  payload: SummarizeStepPayload,
  system: SystemSpec,
  cache: boolean,
  overrides?: TemplateOverrides,
): Promise<SummarizeStepResult> {
  const step = payload.step;
  const template = resolveTemplate(ctx.families, step.templateId, step.templateVersion, overrides);
  let producer: string;
  const generate = async (attempt: number): Promise<string> => {
    if (system.engine !== undefined) {
      const out = await runEngineStep(system.engine, step);
      producer = `engine:${out.engine}`;
      return out.text;
    }
    if (system.plugin) {
      const out = await runPluginStep(ctx, task, payload, system, cache);
      producer = out.producer;
      return out.text;
    }
    if (!ctx.chat)
      throw new ConfigurationError(
        `system ${system.name} needs model ${system.model}, but no model registry is configured`,
      );
    producer = `model:${system.model}`;
    const p = booksParamsOf(system);
    const reply = await ctx.chat.chat({
      model: system.model!,
      messages: renderTemplate(template, step.vars),
      temperature: step.role === 'compress' ? p.compressionTemperature : p.temperature,
      // A summary can be sampled at the model's own temperature (reasoning models take only theirs).
      anyTemperature: true,
      topP: p.topP,
      maxTokens: p.maxTokens,
      runId: task.runId,
      taskId: task.id,
      templateVersion: attempt === 0 ? template.version : `${template.version}#regen-${attempt}`,
      cache,
    });
    return reply.text;
  };
  const outcome = await executeStep(
    { ...step, template, input: step.input } as Parameters<typeof executeStep>[0],
    (_s, attempt) => generate(attempt),
    // Engines and plugins give one answer per input: asking again changes nothing.
    system.engine !== undefined || system.plugin ? 0 : booksParamsOf(system).maxRegenerations,
  );
  return { text: outcome.text, generations: outcome.generations, cut: outcome.cut, producer: producer! };
}
