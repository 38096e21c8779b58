import { describe, expect, it } from '@jest/globals';
import { wordCount } from '@precis/text';
import { createLeadEngine } from './lead-engine.js';
import { createTextRankEngine } from './textrank-engine.js';

const S1 = 'The dragon attacked the village at dawn.'; // 7 words
const S2 = 'Villagers fled from the dragon into the forest.'; // 8
const S3 = 'My cousin enjoys baking bread on Sundays.'; // 7
const S4 = 'The knight rode to the village to fight the dragon.'; // 10
const S5 = 'The knight killed the dragon and the village celebrated.'; // 9
const STORY = [S1, S2, S3, S4, S5].join(' ');

describe('TextRank engine', () => {
  const engine = createTextRankEngine();

  it('keeps the most central sentences in text order within the budget', async () => {
    // S4 and S5 share knight/dragon/village and tie; S1 comes next; S3 is off topic.
    expect(await engine.summarizeChunk({ text: STORY, budgetWords: 19 })).toEqual({
      text: `${S4} ${S5}`,
      engine: 'textrank@1',
    });
    // S4 wins the tie (text order), S5 no longer fits, S1 does.
    expect((await engine.summarizeChunk({ text: STORY, budgetWords: 18 })).text).toBe(`${S1} ${S4}`);
    const all = await engine.summarizeChunk({ text: STORY, budgetWords: 1000 });
    expect(all.text).toBe(STORY);
  });

  it('never exceeds the budget and cuts the top sentence when nothing fits', async () => {
    for (const budget of [1, 3, 8, 12, 25, 40]) {
      const r = await engine.summarizeChunk({ text: STORY, budgetWords: budget });
      expect(wordCount(r.text)).toBeLessThanOrEqual(budget);
      expect(r.text.length).toBeGreaterThan(0);
    }
    expect((await engine.summarizeChunk({ text: STORY, budgetWords: 3 })).text).toBe('The knight rode');
  });

  it('joins hard-wrapped lines and skips headings and near-duplicates', async () => {
    const text = `Chapter 1\n\n${S4.replace(' to fight', '\nto fight')} ${S1}\n\n${S4} ${S5}`;
    const r = await engine.summarizeChunk({ text, budgetWords: 100 });
    expect(r.text).toBe(`${S4} ${S1} ${S5}`);
  });

  it('merges summaries, skipping what the prior context already says', async () => {
    const r = await engine.merge({ summaries: [`${S1} ${S2}`, `${S4} ${S5}`], budgetWords: 100 });
    expect(r.text).toBe(`${S1} ${S2} ${S4} ${S5}`);
    const withContext = await engine.merge({
      summaries: [`${S1} ${S2}`, `${S4} ${S5}`],
      priorContext: S1,
      budgetWords: 100,
    });
    expect(withContext.text).toBe(`${S2} ${S4} ${S5}`);
  });

  it('updates a running summary in story order and compresses within budget', async () => {
    const r = await engine.update({ summary: `${S1} ${S3}`, chunk: `${S4} ${S5}`, budgetWords: 26 });
    expect(r.text).toBe(`${S1} ${S4} ${S5}`);
    const c = await engine.compress({ summary: STORY, budgetWords: 19 });
    expect(c.text).toBe(`${S4} ${S5}`);
  });

  it('cleans artifacts and rejects bad budgets', async () => {
    const r = await engine.clean({ summary: `In this segment, the dragon attacked. ${S5}` });
    expect(r).toEqual({ text: `The dragon attacked. ${S5}`, engine: 'textrank@1' });
    await expect(engine.summarizeChunk({ text: STORY, budgetWords: 0 })).rejects.toThrow(
      'textrank@1 summarizeChunk: budgetWords must be a positive integer, got 0',
    );
    await expect(engine.merge({ summaries: [], budgetWords: 2.5 })).rejects.toThrow(/merge: budgetWords/);
    expect((await engine.summarizeChunk({ text: '  ', budgetWords: 5 })).text).toBe('');
  });
});

describe('lead engine', () => {
  const engine = createLeadEngine();

  it('takes the first sentences that fit', async () => {
    expect(await engine.summarizeChunk({ text: STORY, budgetWords: 22 })).toEqual({
      text: `${S1} ${S2} ${S3}`,
      engine: 'lead@1',
    });
    expect((await engine.summarizeChunk({ text: STORY, budgetWords: 14 })).text).toBe(S1);
    expect((await engine.summarizeChunk({ text: STORY, budgetWords: 4 })).text).toBe(
      'The dragon attacked the',
    );
    expect((await engine.compress({ summary: STORY, budgetWords: 15 })).text).toBe(`${S1} ${S2}`);
  });

  it('gives every summary a share of the merge budget', async () => {
    // 20 words over two summaries: 10 each; the first uses 7, so the second may use 13.
    const r = await engine.merge({ summaries: [`${S1} ${S2}`, `${S4} ${S5}`], budgetWords: 20 });
    expect(r.text).toBe(`${S1} ${S4}`);
    const r2 = await engine.merge({ summaries: [`${S1} ${S2}`, `${S3} ${S4}`], budgetWords: 22 });
    expect(r2.text).toBe(`${S1} ${S3}`);
  });

  it('keeps the running summary first and fills the rest from the chunk', async () => {
    expect((await engine.update({ summary: S1, chunk: `${S2} ${S3}`, budgetWords: 15 })).text).toBe(
      `${S1} ${S2}`,
    );
    expect((await engine.update({ summary: `${S1} ${S2}`, chunk: S3, budgetWords: 15 })).text).toBe(
      `${S1} ${S2}`,
    );
  });
});
