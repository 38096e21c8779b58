import { describe, expect, it } from '@jest/globals';
import { renderTrace, sortSteps, type TraceStep, traceStepKey } from '@precis/engine';
import { hierarchicalTraceGroup } from './hierarchical-trace.js';
import { booksStepOrder } from './step-order.js';

// A step as books-strategies.ts stores it, less what the trace does not read.
const step = (
  key: string,
  role: string,
  text: string | null,
  extra: {
    level?: number;
    input?: { summaries?: string[]; context?: string; text?: string; summary?: string };
  } = {},
): TraceStep => ({
  taskId: `run:sys:doc:${key}`,
  status: text === null ? 'pending' : 'done',
  payload: {
    type: 'summary-step',
    system: 'hier',
    documentId: 'doc',
    step: { key, role, ...extra },
  },
  result: text === null ? null : { text, generations: 1, cut: false, producer: 'engine:lead' },
  error: null,
});

describe('hierarchicalTraceGroup', () => {
  it('prints a hierarchical run as a tree by level, artifact removal last', () => {
    const steps = [
      step('h/clean', 'clean', 'Clean.', { input: { summary: 'All.' } }),
      step('h/1/1', 'merge', 'Merged two.', {
        level: 1,
        input: { summaries: ['C.'], context: 'Merged one.' },
      }),
      step('h/0/10', 'chunk', 'C.', { level: 0, input: { text: 'c' } }),
      step('h/0/0', 'chunk', 'A.', { level: 0, input: { text: 'a' } }),
      step('h/2/0', 'merge', 'All.', { level: 2, input: { summaries: ['Merged one.', 'Merged two.'] } }),
      step('h/1/0', 'merge', 'Merged one.', { level: 1, input: { summaries: ['A.', 'B.'] } }),
      step('h/0/2', 'chunk', null, { level: 0, input: { text: 'b' } }),
    ];
    expect(
      renderTrace(
        'hier',
        'hierarchical',
        sortSteps(steps, traceStepKey, booksStepOrder),
        hierarchicalTraceGroup,
      ),
    ).toBe(
      [
        'hier (hierarchical): 7 steps',
        '  level 0 (chunk summaries)',
        '    [h/0/0] chunk (1w) A.',
        '    [h/0/2] chunk (pending) ',
        '    [h/0/10] chunk (1w) C.',
        '  level 1',
        '    [h/1/0] merge (2w) Merged one. <- level 0 #0..#1',
        '    [h/1/1] merge (2w) Merged two. <- level 0 #2..#2 + prior context',
        '  level 2',
        '    [h/2/0] merge (1w) All. <- level 1 #0..#1',
        '  artifact removal',
        '    [h/clean] clean (1w) Clean.',
        '',
      ].join('\n'),
    );
  });

  it('puts a step stored without a level under level 0', () => {
    expect(hierarchicalTraceGroup({ key: 'h/0/0', role: 'chunk' })).toMatchObject({
      rank: 0,
      heading: 'level 0 (chunk summaries)',
    });
  });
});
