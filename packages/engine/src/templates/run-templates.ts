import {
  ANNOTATE_BATCH_TEMPLATE,
  ANNOTATE_SENTENCE_TEMPLATE,
  GEVAL_SCORE_TEMPLATES,
  GEVAL_STEPS_TEMPLATES,
  OP_I_TEMPLATE,
  OP_TEMPLATES,
  OPINION_SUMMARY_TEMPLATE,
  overrideTemplate,
  type PromptTemplate,
} from '@precis/prompts';
import { DEFAULT_TEMPLATES, type StrategyTemplates } from '@precis/strategies';

// A run's replacements for built-in prompts, by template id (from the spec's `templates:` file).
export type TemplateOverrides = Record<string, { system?: string; user?: string }>;

// Every prompt a run can use; an override must name one of these ids.
export const BUILT_IN_TEMPLATES: readonly PromptTemplate[] = [
  ...Object.values(DEFAULT_TEMPLATES),
  ANNOTATE_BATCH_TEMPLATE,
  ANNOTATE_SENTENCE_TEMPLATE,
  OPINION_SUMMARY_TEMPLATE,
  OP_I_TEMPLATE,
  ...Object.values(OP_TEMPLATES),
  ...Object.values(GEVAL_STEPS_TEMPLATES),
  ...Object.values(GEVAL_SCORE_TEMPLATES),
];

export function builtInTemplate(id: string): PromptTemplate | undefined {
  return BUILT_IN_TEMPLATES.find((t) => t.id === id);
}

// Overridden templates get a version derived from their text (see overrideTemplate), so tasks,
// cache keys and reports tell them apart from the built-in prompt.
const memo = new WeakMap<TemplateOverrides, Map<string, PromptTemplate>>();

export function runTemplate(base: PromptTemplate, overrides: TemplateOverrides | undefined): PromptTemplate {
  const override = overrides?.[base.id];
  if (!overrides || !override) return base;
  let cache = memo.get(overrides);
  if (!cache) {
    cache = new Map();
    memo.set(overrides, cache);
  }
  let t = cache.get(base.id);
  if (!t) {
    t = overrideTemplate(base, override);
    cache.set(base.id, t);
  }
  return t;
}

export function strategyTemplates(overrides: TemplateOverrides | undefined): StrategyTemplates {
  if (!overrides) return DEFAULT_TEMPLATES;
  return Object.fromEntries(
    Object.entries(DEFAULT_TEMPLATES).map(([role, t]) => [role, runTemplate(t, overrides)]),
  ) as unknown as StrategyTemplates;
}

// Problems of an overrides object, each naming the template id (empty when valid).
export function checkTemplateOverrides(overrides: TemplateOverrides): string[] {
  const problems: string[] = [];
  for (const [id, o] of Object.entries(overrides)) {
    const base = builtInTemplate(id);
    if (!base) {
      problems.push(
        `templates.${id}: no such template (known: ${BUILT_IN_TEMPLATES.map((t) => t.id).join(', ')})`,
      );
      continue;
    }
    if (o.system === undefined && o.user === undefined) {
      problems.push(`templates.${id}: give "user" and/or "system" text`);
      continue;
    }
    try {
      overrideTemplate(base, o);
    } catch (err) {
      problems.push(`templates.${id}: ${(err as Error).message}`);
    }
  }
  return problems;
}
