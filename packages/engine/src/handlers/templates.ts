import type { PromptTemplate } from '@precis/prompts';
import { builtInTemplate, runTemplate, type TemplateOverrides } from '../templates/run-templates.js';

export class TemplateMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateMismatchError';
  }
}

// A task names the template version it was planned with; a worker running other code refuses
// it rather than answering with a different prompt.
export function resolveTemplate(id: string, version: string, overrides?: TemplateOverrides): PromptTemplate {
  const base = builtInTemplate(id);
  if (!base) throw new TemplateMismatchError(`unknown template ${id}`);
  const template = runTemplate(base, overrides);
  if (template.version !== version) {
    throw new TemplateMismatchError(
      `template ${id} is at version ${template.version} here, but the task was planned with ${version}`,
    );
  }
  return template;
}
