import { describe, expect, it } from '@jest/globals';
import { formatCost, formatScore } from './cost';

describe('run cost and scores in lists', () => {
  it('gives the spent cost, and what calls not settled yet reserved apart', () => {
    expect(formatCost(0.0675)).toBe('$0.0675');
    expect(formatCost(0.0675, 0.25)).toBe('$0.0675 spent (+$0.2500 reserved in flight)');
    expect(formatCost(0.0675, 0.25, false)).toBe('$0.0675 spent (+$0.2500 reserved by calls never settled)');
    expect(formatCost(0)).toBe('$0.00');
  });

  it('shows a score with one or two decimals', () => {
    expect([100, 11.18, 4.5714, 11.1].map(formatScore)).toEqual(['100.0', '11.18', '4.57', '11.1']);
  });
});
