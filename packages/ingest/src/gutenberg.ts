export interface ParagraphSpan {
  text: string;
  start: number;
  end: number;
}

// Paragraphs are separated by one or more blank lines; each keeps its own line breaks and its
// offsets into the text, so chunks can be mapped back to the document.
export function splitParagraphSpans(text: string): ParagraphSpan[] {
  const spans: ParagraphSpan[] = [];
  const separator = /\n[ \t]*\n\s*/g;
  let from = 0;
  const push = (start: number, end: number) => {
    const raw = text.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed) spans.push({ text: trimmed, start: start + lead, end: start + lead + trimmed.length });
  };
  for (let m = separator.exec(text); m !== null; m = separator.exec(text)) {
    push(from, m.index);
    from = m.index + m[0].length;
  }
  push(from, text.length);
  return spans;
}

const START_MARKER = /^\*\*\* ?START OF (THE|THIS) PROJECT GUTENBERG EBOOK[^\n]*\n/im;
const END_MARKER = /^\*\*\* ?END OF (THE|THIS) PROJECT GUTENBERG EBOOK[^\n]*$/im;

// Project Gutenberg files may carry a licence header and footer around the book; keep only the
// text between the markers when both are present (files already stripped are left as they are).
export function stripGutenbergBoilerplate(text: string): { text: string; stripped: boolean } {
  const start = START_MARKER.exec(text);
  const end = END_MARKER.exec(text);
  if (!start || !end || end.index <= start.index) return { text, stripped: false };
  return { text: text.slice(start.index + start[0].length, end.index).trim(), stripped: true };
}

export function gutenbergTitle(text: string): string | null {
  const match = /^Title:[ \t]*(.+)$/m.exec(text.slice(0, 5000));
  return match ? match[1]!.trim() : null;
}
