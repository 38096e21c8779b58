import { describe, expect, it } from '@jest/globals';
import { countTokens } from '@precis/text';
import { splitToFit } from './judge-calls.js';

describe('splitToFit', () => {
  const facts = Array.from(
    { length: 10 },
    (_, i) => `Fact number ${i + 1} says something about the council vote.`,
  );
  const prompt = (part: readonly string[]) => `Facts:\n${part.join('\n')}`;

  it('keeps a list that fits whole, and splits one that does not into parts that each fit, losing nothing', () => {
    expect(splitToFit(facts, prompt, 100_000)).toEqual([facts]);
    const window = 200;
    const parts = splitToFit(facts, prompt, window);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.flat()).toEqual(facts);
    for (const p of parts) expect(countTokens(prompt(p)) + 8 * p.length + 64).toBeLessThanOrEqual(window);
  });

  it('refuses an item that alone does not fit', () => {
    expect(() => splitToFit(facts, prompt, 70)).toThrow(
      "one item alone needs more than the judge's 70-token context window",
    );
  });
});
