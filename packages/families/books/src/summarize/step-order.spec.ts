import { describe, expect, it } from '@jest/globals';
import { sortSteps } from '@precis/engine';
import { booksStepOrder } from './step-order.js';

const sorted = (keys: string[]) => sortSteps(keys, (k) => k, booksStepOrder);

describe('booksStepOrder', () => {
  it('orders hierarchical steps by level, then by index as a number', () => {
    expect(sorted(['h/1/0', 'h/0/10', 'h/0/2', 'h/clean', 'h/0/1', 'h/0/0', 'h/1/1'])).toEqual([
      'h/0/0',
      'h/0/1',
      'h/0/2',
      'h/0/10',
      'h/1/0',
      'h/1/1',
      'h/clean',
    ]);
  });

  it('orders incremental steps by number, an update before the compression of the same chunk', () => {
    expect(sorted(['i/u/10', 'i/c/2', 'i/u/2', 'i/u/1', 'i/0', 'i/clean'])).toEqual([
      'i/0',
      'i/u/1',
      'i/u/2',
      'i/c/2',
      'i/u/10',
      'i/clean',
    ]);
  });

  it('puts full-context artifact removal after its one step', () => {
    expect(sorted(['f/clean', 'f/0'])).toEqual(['f/0', 'f/clean']);
  });

  it('keeps steps of other shapes in the order given (a stable sort)', () => {
    expect(sorted(['simulate', 'graph', 'rank', 'summary'])).toEqual([
      'simulate',
      'graph',
      'rank',
      'summary',
    ]);
  });
});

describe('sortSteps with booksStepOrder', () => {
  it('sorts a copy by each step key, leaving the input as it was', () => {
    const steps = [{ key: 'h/0/10' }, { key: 'h/0/9' }];
    expect(sortSteps(steps, (s) => s.key, booksStepOrder).map((s) => s.key)).toEqual(['h/0/9', 'h/0/10']);
    expect(steps.map((s) => s.key)).toEqual(['h/0/10', 'h/0/9']);
  });
});
