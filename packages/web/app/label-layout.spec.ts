import { describe, expect, it } from '@jest/globals';
import { dodgeLabels, type LabelBox } from './label-layout';

const LINE = 14;

// Pairs of labels whose boxes overlap (text spans overlap and less than a line apart).
function overlaps(boxes: LabelBox[], ys: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) {
      const [a, b] = [boxes[i]!, boxes[j]!];
      const sideBySide = a.x + a.width <= b.x || b.x + b.width <= a.x;
      if (!sideBySide && Math.abs(ys[i]! - ys[j]!) < LINE - 0.01) out.push([i, j]);
    }
  return out;
}

const round = (ys: number[]) => ys.map((y) => Math.round(y * 10) / 10);

describe('dodgeLabels', () => {
  it('leaves labels that do not overlap where they are', () => {
    const boxes = [
      { x: 10, width: 80, y: 50 },
      { x: 10, width: 80, y: 100 },
      // Beside the first one, at its height.
      { x: 200, width: 80, y: 50 },
    ];
    expect(dodgeLabels(boxes, LINE, 0, 300)).toEqual([50, 100, 50]);
  });

  it('spreads three labels of one point a line apart around it', () => {
    const boxes = [0, 1, 2].map(() => ({ x: 10, width: 90, y: 100 }));
    const ys = dodgeLabels(boxes, LINE, 0, 300);
    expect(overlaps(boxes, ys)).toEqual([]);
    expect(round([...ys].sort((a, b) => a - b))).toEqual([86, 100, 114]);
  });

  it('keeps nine labels of one point at the bottom inside the plot, none overlapping', () => {
    const boxes = Array.from({ length: 9 }, () => ({ x: 40, width: 100, y: 260 }));
    const ys = dodgeLabels(boxes, LINE, 20, 260);
    expect(overlaps(boxes, ys)).toEqual([]);
    expect(Math.max(...ys)).toBeLessThanOrEqual(260);
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(20);
  });

  it('moves apart labels of nearby points whose text spans overlap', () => {
    const boxes = [
      { x: 100, width: 120, y: 60 },
      { x: 150, width: 120, y: 64 },
    ];
    const ys = dodgeLabels(boxes, LINE, 0, 300);
    expect(round(ys)).toEqual([55, 69]);
  });
});
