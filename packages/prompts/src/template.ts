import { createHash } from 'node:crypto';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

// A versioned prompt owned by Precis. `system` and `user` use {{name}} placeholders.
export interface PromptTemplate {
  id: string;
  version: string;
  description: string;
  system?: string;
  user: string;
}

export class TemplateRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateRenderError';
  }
}

const PLACEHOLDER = /\{\{\s*([a-zA-Z][a-zA-Z0-9_]*)\s*\}\}/g;

export function placeholders(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

function fill(template: PromptTemplate, text: string, vars: Record<string, string | number>): string {
  return text.replace(PLACEHOLDER, (_, name: string) => {
    const value = vars[name];
    if (value === undefined) {
      throw new TemplateRenderError(`template ${template.id}@${template.version}: no value for {{${name}}}`);
    }
    return String(value);
  });
}

export function renderTemplate(
  template: PromptTemplate,
  vars: Record<string, string | number>,
): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (template.system) messages.push({ role: 'system', content: fill(template, template.system, vars) });
  messages.push({ role: 'user', content: fill(template, template.user, vars) });
  return messages;
}

// The version recorded with every output and used in the cache key: an overridden template
// gets a version derived from its text, so cached answers of the built-in one are never reused.
export function overrideTemplate(
  base: PromptTemplate,
  override: { system?: string; user?: string },
): PromptTemplate {
  const system = override.system ?? base.system;
  const user = override.user ?? base.user;
  const missing = placeholders(base.user + (base.system ?? '')).filter(
    (p) => !placeholders(user + (system ?? '')).includes(p),
  );
  const unknown = placeholders(user + (system ?? '')).filter(
    (p) => !placeholders(base.user + (base.system ?? '')).includes(p),
  );
  if (unknown.length) {
    throw new TemplateRenderError(
      `override of ${base.id}: unknown placeholder(s) ${unknown.map((p) => `{{${p}}}`).join(', ')}; allowed: ${placeholders(base.user + (base.system ?? '')).join(', ')}`,
    );
  }
  const digest = createHash('sha256')
    .update(`${system ?? ''}\u0000${user}`)
    .digest('hex')
    .slice(0, 10);
  return {
    ...base,
    system,
    user,
    version: `${base.version}+override.${digest}`,
    description: `${base.description} (overridden${missing.length ? `; drops ${missing.join(', ')}` : ''})`,
  };
}
