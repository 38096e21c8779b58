import { runTemplate, type TemplateOverrides } from '@precis/engine/family';
import { DEFAULT_TEMPLATES, type StrategyTemplates } from '../strategies/templates.js';

export function strategyTemplates(overrides: TemplateOverrides | undefined): StrategyTemplates {
  if (!overrides) return DEFAULT_TEMPLATES;
  return Object.fromEntries(
    Object.entries(DEFAULT_TEMPLATES).map(([role, t]) => [role, runTemplate(t, overrides)]),
  ) as unknown as StrategyTemplates;
}
