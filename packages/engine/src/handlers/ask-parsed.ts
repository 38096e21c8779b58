import { OutputParseError, type PromptTemplate, renderTemplate } from '@precis/prompts';
import type { RunContext } from '../planner/run-context.js';
import { runTemplate, type TemplateOverrides } from '../templates/run-templates.js';

export interface JudgeCall {
  ctx: RunContext;
  task: { id: string; runId: string };
  model: string;
  temperature: number;
  // A system's own model doing the system's work (a strategy's intermediate answers and its
  // summary): it runs as well at the model's own temperature. Judges leave it unset: their
  // temperature is the method's.
  anyTemperature?: boolean;
  attempts: number;
  cache: boolean;
  overrides?: TemplateOverrides;
}

// One judge prompt, re-asked (bounded) until its reply parses; unparseable to the end is a
// failure of the task (`fail` makes the family's permanent error), never a default verdict.
export async function askParsed<T>(
  // role: who answers, as errors name it (default "judge").
  call: JudgeCall & { benchmark: string; fail: (message: string) => Error; role?: string },
  base: PromptTemplate,
  vars: Record<string, string | number>,
  parse: (text: string, templateId: string) => T,
): Promise<{ value: T; templateVersion: string }> {
  const { ctx, task } = call;
  if (!ctx.chat)
    throw call.fail(
      `the ${call.benchmark} ${call.role ?? 'judge'} needs model ${call.model}, but no model registry is configured`,
    );
  const template = runTemplate(base, call.overrides);
  let last = '';
  for (let attempt = 0; attempt < call.attempts; attempt++) {
    const reply = await ctx.chat.chat({
      model: call.model,
      messages: renderTemplate(template, vars),
      temperature: call.temperature,
      ...(call.anyTemperature ? { anyTemperature: true } : {}),
      runId: task.runId,
      taskId: task.id,
      templateVersion: attempt === 0 ? template.version : `${template.version}#reask-${attempt}`,
      cache: call.cache,
    });
    try {
      return { value: parse(reply.text, template.id), templateVersion: `${template.id}@${template.version}` };
    } catch (err) {
      if (!(err instanceof OutputParseError)) throw err;
      last = err.message;
      ctx.logger.warn(`unparseable ${call.benchmark} ${call.role ?? 'judge'} reply`, {
        taskId: task.id,
        attempt,
        error: err.message,
      });
    }
  }
  throw call.fail(
    `${call.role ?? 'judge'} ${call.model} gave no parseable answer in ${call.attempts} attempt(s); last: ${last}`,
  );
}
