import type { PromptTemplate } from '@precis/prompts';
import type { FamilyRegistry } from '../family/family-registry.js';
import { runTemplate, type TemplateOverrides } from '../templates/run-templates.js';

// A task or spec that cannot be run as it is (a system or metric it names is missing, a model
// without a registry...): the task fails at once, no redelivery can fix it.
export class ConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigurationError';
  }
}

export class TemplateMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateMismatchError';
  }
}

// A task names the template version it was planned with; a worker running other code refuses
// it rather than answering with a different prompt.
export function resolveTemplate(
  families: FamilyRegistry,
  id: string,
  version: string,
  overrides?: TemplateOverrides,
): PromptTemplate {
  const base = families.templates.get(id);
  if (!base) throw new TemplateMismatchError(`unknown template ${id}`);
  const template = runTemplate(base, overrides);
  if (template.version !== version) {
    throw new TemplateMismatchError(
      `template ${id} is at version ${template.version} here, but the task was planned with ${version}`,
    );
  }
  return template;
}
