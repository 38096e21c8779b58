import type { TextSpan } from './span.js';

// A blank line (possibly holding spaces or tabs) separates paragraphs; single line breaks are
// hard wraps inside a paragraph (Project Gutenberg style), except before a line that starts a
// list item or a Markdown heading ("- ", "* ", "• ", "3. ", "2) ", "## "), as model output uses.
const PARAGRAPH = /\S(?:[^\n]|\n(?![ \t\r]*\n|[ \t]*(?:[-*•]|\d{1,3}[.)]|#{1,6})[ \t]))*/g;

export function splitParagraphSpans(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  for (const m of text.matchAll(PARAGRAPH)) {
    const start = m.index;
    const end = start + m[0].trimEnd().length;
    spans.push({ text: text.slice(start, end), start, end });
  }
  return spans;
}

export function splitParagraphs(text: string): string[] {
  return splitParagraphSpans(text).map((s) => s.text);
}
