import { describe, expect, it } from '@jest/globals';
import type { SummaryTaskStep } from '../tasks/task-payloads.js';
import { renderTrace, type TraceGroup, type TraceStep } from './render-trace.js';

const step = (
  key: string,
  role: string,
  text: string | null,
  input?: SummaryTaskStep['input'],
): TraceStep => ({
  taskId: `t:${key}`,
  status: text === null ? 'failed' : 'done',
  payload: { type: 'step', system: 's', documentId: 'd', step: { key, role, input } },
  result: text === null ? null : { text, generations: 1, cut: false, producer: 'p' },
  error: text === null ? 'model timed out' : null,
});

// A family-neutral layout: drafts first, then the joins that took them.
const draftsThenJoins = (s: SummaryTaskStep): TraceGroup =>
  s.role === 'draft' ? { rank: 0, heading: 'drafts' } : { rank: 1, heading: 'joins', inputsFrom: 'drafts' };

describe('renderTrace', () => {
  it('lists the steps in order when the strategy does not group them', () => {
    const steps = [
      {
        ...step('s/0', 'draft', 'first  text'),
        result: { text: 'first  text', generations: 3, cut: true, producer: 'p' },
      },
      step('s/1', 'revise', 'second'),
    ];
    expect(renderTrace('x', 'rolling', steps)).toBe(
      'x (rolling): 2 steps\n  [s/0] draft (2w, 3 generations, cut) first text\n  [s/1] revise (1w) second\n',
    );
  });

  it('shows a one-step task under its kind and cuts long texts to the width', () => {
    const one: TraceStep = {
      taskId: 't',
      status: 'done',
      payload: { type: 'source-summary', system: 'gold', documentId: 'd' },
      result: { text: 'abcdefghij klm', generations: 1, cut: false, producer: 'p' },
      error: null,
    };
    expect(renderTrace('gold', 'source', [one], undefined, 8)).toBe(
      'gold (source): 1 step\n  [source-summary] source-summary (2w) abcdefg…\n',
    );
  });

  it('prints the groups a strategy gives, in rank order, with the inputs each step took', () => {
    const steps = [
      step('draft/0', 'draft', 'a'),
      step('join/0', 'join', 'joined', { summaries: ['a', 'b'] }),
      step('draft/1', 'draft', 'b'),
      step('join/1', 'join', 'joined again', { summaries: ['c'], context: 'joined' }),
      step('draft/2', 'draft', null),
    ];
    expect(renderTrace('x', 'drafts', steps, draftsThenJoins)).toBe(
      [
        'x (drafts): 5 steps',
        '  drafts',
        '    [draft/0] draft (1w) a',
        '    [draft/1] draft (1w) b',
        '    [draft/2] draft (failed) model timed out',
        '  joins',
        '    [join/0] join (1w) joined <- drafts #0..#1',
        '    [join/1] join (2w) joined again <- drafts #2..#2 + prior context',
        '',
      ].join('\n'),
    );
  });

  it('names no source for a group without inputsFrom', () => {
    const steps = [step('a', 'merge', 'x', { summaries: ['p', 'q'] })];
    expect(renderTrace('x', 'y', steps, () => ({ rank: 0, heading: 'all' }))).toBe(
      'x (y): 1 step\n  all\n    [a] merge (1w) x\n',
    );
  });
});
