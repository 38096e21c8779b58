import { describe, expect, it } from '@jest/globals';
import { placeholders, renderTemplate } from '@precis/prompts';
import { parsePairwiseVerdict, parseSimulatedQuery } from './gor.parsers.js';
import { GOR_TEMPLATES } from './gor.templates.js';

const messageOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  throw new Error('expected an error');
};

describe('GoR parsers', () => {
  it('reads one simulated question', () => {
    expect(parseSimulatedQuery('Question: What did the committee decide about the budget?')).toBe(
      'What did the committee decide about the budget?',
    );
    expect(parseSimulatedQuery('Sure.\n**Question:** How was the bill received?')).toBe(
      'How was the bill received?',
    );
    expect(messageOf(() => parseSimulatedQuery("I'm sorry, I can't help with that."))).toBe(
      'gor.simulate-query: 0 "Question:" lines, expected exactly one',
    );
    expect(messageOf(() => parseSimulatedQuery('Question: Summarize the meeting.'))).toBe(
      'gor.simulate-query: "Summarize the meeting." is not a question',
    );
  });

  it('reads the pairwise winners of all four criteria', () => {
    const reply =
      '```json\n{"comprehensiveness": {"winner": 1, "reason": "more detail"}, "diversity": {"winner": "2", "reason": "x"}, "empowerment": {"winner": 1, "reason": "y"}, "overall": {"winner": 1, "reason": "z"}}\n```';
    expect(parsePairwiseVerdict(reply)).toEqual({
      comprehensiveness: 1,
      diversity: 2,
      empowerment: 1,
      overall: 1,
    });
    expect(messageOf(() => parsePairwiseVerdict('{"comprehensiveness": {"winner": 1}}'))).toBe(
      'gor.judge.pairwise: "diversity" must name answer 1 or 2, got null',
    );
    expect(
      messageOf(() =>
        parsePairwiseVerdict('{"comprehensiveness": 3, "diversity": 1, "empowerment": 1, "overall": 1}'),
      ),
    ).toBe('gor.judge.pairwise: "comprehensiveness" must name answer 1 or 2, got 3');
    expect(messageOf(() => parsePairwiseVerdict('Both are fine.'))).toBe(
      'gor.judge.pairwise: no JSON object in the reply',
    );
  });

  it('renders every template with exactly its placeholders', () => {
    const expected: Record<string, string[]> = {
      'gor.simulate-query': ['chunk'],
      'gor.respond': ['materials', 'query'],
      'gor.summarize': ['materials', 'query'],
      'gor.judge.pairwise': ['query', 'answer1', 'answer2'],
    };
    for (const t of GOR_TEMPLATES) {
      expect([t.id, placeholders(t.user + (t.system ?? ''))]).toEqual([t.id, expected[t.id]]);
      const vars = Object.fromEntries(expected[t.id]!.map((p) => [p, `<${p}>`]));
      expect(renderTemplate(t, vars).at(-1)!.content).not.toContain('{{');
    }
  });
});
