import { describe, expect, it } from '@jest/globals';
import { wordCount } from '@precis/text';
import { runStrategy } from './plan.js';
import { DEFAULT_STRATEGY_PARAMS, type SummaryStep } from './steps.js';
import { DEFAULT_TEMPLATES } from './templates.js';

const words = (n: number, word: string) => `${Array.from({ length: n }, () => word).join(' ')}.`;

describe('incremental updating', () => {
  it('updates once per chunk and compresses exactly when the running summary exceeds G_n', async () => {
    const chunks = Array.from({ length: 7 }, (_, i) => `Part ${i}. ${words(100, 'text')}`);
    const params = { ...DEFAULT_STRATEGY_PARAMS, runningBudget: 100 };
    // Scripted model: the initial summary has 40 words; each update adds 35 words to the
    // running summary; a compression returns 30 words.
    const log: { role: string; index?: number; inputWords?: number }[] = [];
    const result = await runStrategy(
      'incremental',
      { chunks, params, templates: DEFAULT_TEMPLATES },
      async (step: SummaryStep) => {
        log.push({
          role: step.role,
          index: step.index,
          inputWords: step.input.summary ? wordCount(step.input.summary) : undefined,
        });
        if (step.role === 'initial') return words(40, 'a');
        if (step.role === 'update') return words(wordCount(step.input.summary!) + 35, 'b');
        if (step.role === 'compress') return words(30, 'c');
        throw new Error(`unexpected ${step.role}`);
      },
    );
    // Running sizes: 40, 75, 110 -> compress (30), 65, 100, 135 -> compress (30), 65.
    expect(log.map((l) => `${l.role}:${l.index}`)).toEqual([
      'initial:0',
      'update:1',
      'update:2',
      'compress:2',
      'update:3',
      'update:4',
      'update:5',
      'compress:5',
      'update:6',
    ]);
    for (const l of log.filter((x) => x.role === 'compress')) expect(l.inputWords).toBeGreaterThan(100);
    expect(wordCount(result.summary)).toBe(65);
  });

  it('runs artifact removal last when enabled', async () => {
    const chunks = ['One.', 'Two.'];
    const params = { ...DEFAULT_STRATEGY_PARAMS, runningBudget: 100, artifactRemoval: true };
    const roles: string[] = [];
    const result = await runStrategy(
      'incremental',
      { chunks, params, templates: DEFAULT_TEMPLATES },
      async (step) => {
        roles.push(step.role);
        return step.role === 'clean' ? 'Clean summary.' : 'In this segment, things happen.';
      },
    );
    expect(roles).toEqual(['initial', 'update', 'clean']);
    expect(result.summary).toBe('Clean summary.');
  });
});
