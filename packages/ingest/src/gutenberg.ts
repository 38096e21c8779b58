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
