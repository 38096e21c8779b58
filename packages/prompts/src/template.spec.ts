import { describe, expect, it } from '@jest/globals';
import { overrideTemplate, type PromptTemplate, renderTemplate, TemplateRenderError } from './template.js';

const CHUNK_SUMMARY_TEMPLATE: PromptTemplate = {
  id: 'test.chunk-summary',
  version: '1',
  description: 'Summarize one part of a story',
  system: 'You write faithful summaries.',
  user: 'Summarize this part in at most {{budget}} words.\n\nPart:\n{{text}}',
};

describe('templates', () => {
  it('renders placeholders and refuses missing values', () => {
    const messages = renderTemplate(CHUNK_SUMMARY_TEMPLATE, { budget: 300, text: 'Once upon a time.' });
    expect(messages[1]!.content).toContain('at most 300 words');
    expect(messages[1]!.content).toContain('Once upon a time.');
    expect(() => renderTemplate(CHUNK_SUMMARY_TEMPLATE, { budget: 300 })).toThrow(TemplateRenderError);
  });

  it('gives an overridden template a version derived from its text and rejects unknown placeholders', () => {
    const a = overrideTemplate(CHUNK_SUMMARY_TEMPLATE, { user: 'Summarize in {{budget}} words: {{text}}' });
    const b = overrideTemplate(CHUNK_SUMMARY_TEMPLATE, {
      user: 'Summarize ({{budget}} words max): {{text}}',
    });
    expect(a.version).toMatch(/^1\+override\.[0-9a-f]{10}$/);
    expect(a.version).not.toBe(b.version);
    expect(() => overrideTemplate(CHUNK_SUMMARY_TEMPLATE, { user: '{{text}} {{style}}' })).toThrow(
      /unknown placeholder/,
    );
  });
});
