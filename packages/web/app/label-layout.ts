// Point labels that do not overlap: each label starts at its point's x and is moved up or down
// (never sideways) until no two labels whose text spans overlap are closer than a line.

export interface LabelBox {
  // Where the label's text starts and how wide it is, and its point's y, all in pixels.
  x: number;
  width: number;
  y: number;
}

const overlapX = (a: LabelBox, b: LabelBox) => a.x < b.x + b.width && b.x < a.x + a.width;

// Labels whose text spans overlap, directly or through others: each group is one column.
function columns(boxes: readonly LabelBox[]): number[][] {
  const group = boxes.map((_, i) => i);
  const find = (i: number): number => {
    while (group[i] !== i) i = group[i]!;
    return i;
  };
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++) if (overlapX(boxes[i]!, boxes[j]!)) group[find(j)] = find(i);
  const byRoot = new Map<number, number[]>();
  for (let i = 0; i < boxes.length; i++) byRoot.set(find(i), [...(byRoot.get(find(i)) ?? []), i]);
  return [...byRoot.values()];
}

interface Stack {
  items: number[];
  top: number;
}

// One column: labels stacked a line apart, each stack centred on its points (the mean offset),
// stacks merged while they overlap, and kept within [top, bottom] while the room allows.
function stackColumn(order: number[], ys: readonly number[], line: number, top: number, bottom: number) {
  const stacks: Stack[] = [];
  const place = (s: Stack) => {
    const ideal = s.items.reduce((sum, i, k) => sum + ys[i]! - k * line, 0) / s.items.length;
    s.top = Math.max(top, Math.min(bottom - (s.items.length - 1) * line, ideal));
  };
  for (const i of order) {
    const s: Stack = { items: [i], top: 0 };
    place(s);
    stacks.push(s);
    for (
      let prev = stacks.at(-2);
      prev && prev.top + prev.items.length * line > stacks.at(-1)!.top;
      prev = stacks.at(-2)
    ) {
      prev.items.push(...stacks.pop()!.items);
      place(prev);
    }
  }
  return stacks.flatMap((s) => s.items.map((i, k) => [i, s.top + k * line] as const));
}

// The y of each label: as near its point as the others allow, no two overlapping.
export function dodgeLabels(boxes: readonly LabelBox[], line: number, top: number, bottom: number): number[] {
  const ys = boxes.map((b) => b.y);
  const out = [...ys];
  for (const column of columns(boxes)) {
    // Top to bottom; labels of one y keep their input order.
    const order = [...column].sort((a, b) => ys[a]! - ys[b]! || a - b);
    for (const [i, y] of stackColumn(order, ys, line, top, bottom)) out[i] = y;
  }
  return out;
}
