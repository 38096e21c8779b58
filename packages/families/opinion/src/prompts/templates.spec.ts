import { describe, expect, it } from '@jest/globals';
import {
  OPINION_DIMENSION_IDS,
  overrideTemplate,
  placeholders,
  renderTemplate,
  toOpinionDimensionId,
} from '@precis/prompts';
import { OPINION_DIMENSIONS_DEFINED } from './dimension-definitions.js';
import { OPINION_SUMMARY_TEMPLATE } from './generate.template.js';
import {
  GEVAL_SCORE_TEMPLATES,
  GEVAL_STEPS_TEMPLATES,
  renderGevalScorePrompt,
  renderGevalStepsPrompt,
} from './geval.templates.js';
import { OP_TEMPLATES, renderOpPrompt } from './op.templates.js';
import { OP_I_TEMPLATE, renderOpIPrompt } from './op-i.template.js';

const input = {
  reviews: ['Great boots, but narrow.', 'Too narrow for me.'],
  summary: 'Nice but narrow boots.',
};

describe('opinion templates', () => {
  it('Op-I swaps only the metric block between dimensions', () => {
    const fl = renderOpIPrompt('fluency', input);
    const ac = renderOpIPrompt('aspect_coverage', input);
    expect(fl[1]!.content).toContain(
      `Name: Fluency\nDefinition: ${OPINION_DIMENSIONS_DEFINED.fluency.definition}`,
    );
    expect(ac[1]!.content).toContain('Name: Aspect Coverage');
    const strip = (s: string) => s.replace(/Metric\nName:[^\n]*\nDefinition:[^\n]*\n/, '');
    expect(strip(fl[1]!.content)).toBe(strip(ac[1]!.content));
    expect(fl[1]!.content).toContain('Review 2: Too narrow for me.');
    expect(fl[1]!.content.trimEnd()).toMatch(/<score>3<\/score>, and write nothing after it\.$/);
  });

  it('has one Op template and one G-Eval pair per dimension, each with a distinct id and a version', () => {
    for (const d of OPINION_DIMENSION_IDS) {
      for (const t of [OP_TEMPLATES[d], GEVAL_STEPS_TEMPLATES[d], GEVAL_SCORE_TEMPLATES[d]]) {
        expect(t.id).toContain(d);
        expect(t.version).toBe('1');
      }
      expect(placeholders(OP_TEMPLATES[d].user).sort()).toEqual(['reviews', 'summary']);
      expect(placeholders(GEVAL_SCORE_TEMPLATES[d].user).sort()).toEqual(['reviews', 'steps', 'summary']);
      expect(placeholders(GEVAL_STEPS_TEMPLATES[d].user)).toEqual([]);
    }
    const rubrics = OPINION_DIMENSION_IDS.map((d) => renderOpPrompt(d, input)[1]!.content);
    expect(new Set(rubrics).size).toBe(7);
    expect(rubrics[4]).toContain('List the aspects of the product the reviews discuss');
  });

  it('G-Eval embeds the generated steps, renumbered', () => {
    expect(renderGevalStepsPrompt('specificity')[0]!.content).toContain('Specificity (1-5)');
    const msg = renderGevalScorePrompt('coherence', ['Read it.', 'Check the order.'], input)[0]!.content;
    expect(msg).toContain('Evaluation steps\n1. Read it.\n2. Check the order.\n');
  });

  it('templates can be overridden from a file and get a derived version', () => {
    const custom = overrideTemplate(OP_I_TEMPLATE, {
      user: 'Metric {{metricName}}: {{metricDefinition}}\n{{reviews}}\n---\n{{summary}}\n<score>N</score>',
    });
    expect(custom.version).toMatch(/^1\+override\.[0-9a-f]{10}$/);
    expect(renderOpIPrompt('relevance', input, custom)[1]!.content).toMatch(/^Metric Relevance: /);
    const gen = renderTemplate(OPINION_SUMMARY_TEMPLATE, { reviews: 'Review 1: fine' });
    expect(gen[1]!.content).toContain('ONE paragraph');
  });

  it('maps short ids to canonical ids', () => {
    expect(toOpinionDimensionId('sc')).toBe('sentiment_consistency');
    expect(toOpinionDimensionId('faithfulness')).toBe('faithfulness');
    expect(toOpinionDimensionId('xx')).toBeNull();
  });
});
