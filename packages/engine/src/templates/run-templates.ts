import { overrideTemplate, type PromptTemplate } from '@precis/prompts';
import type { FamilyRegistry } from '../family/family-registry.js';

// A run's replacements for built-in prompts, by template id (from the spec's `templates:` file).
export type TemplateOverrides = Record<string, { system?: string; user?: string }>;

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

// Problems of an overrides object, each naming the template id (empty when valid).
export function checkTemplateOverrides(families: FamilyRegistry, overrides: TemplateOverrides): string[] {
  const problems: string[] = [];
  for (const [id, o] of Object.entries(overrides)) {
    const base = families.templates.get(id);
    if (!base) {
      problems.push(
        `templates.${id}: no such template (known: ${[...families.templates.keys()].join(', ')})`,
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
