// A piece of a larger text: `text === source.slice(start, end)` always holds.
export interface TextSpan {
  text: string;
  start: number;
  end: number;
}
