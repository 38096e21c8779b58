import { ANNOTATE_BATCH_TEMPLATE, ANNOTATE_SENTENCE_TEMPLATE, type PromptTemplate } from '@precis/prompts';
import { DEFAULT_TEMPLATES } from '@precis/strategies';

const BUILT_IN: PromptTemplate[] = [
  ...Object.values(DEFAULT_TEMPLATES),
  ANNOTATE_BATCH_TEMPLATE,
  ANNOTATE_SENTENCE_TEMPLATE,
];

export class TemplateMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateMismatchError';
  }
}

// A task names the template version it was planned with; a worker running other code refuses
// it rather than answering with a different prompt.
export function resolveTemplate(id: string, version: string): PromptTemplate {
  const template = BUILT_IN.find((t) => t.id === id);
  if (!template) throw new TemplateMismatchError(`unknown template ${id}`);
  if (template.version !== version) {
    throw new TemplateMismatchError(
      `template ${id} is at version ${template.version} here, but the task was planned with ${version}`,
    );
  }
  return template;
}
