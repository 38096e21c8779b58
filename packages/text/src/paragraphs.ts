import type { TextSpan } from './span.js';

// A blank line (possibly holding spaces or tabs) separates paragraphs; single line breaks are
// hard wraps inside a paragraph (Project Gutenberg style), except before a line that starts a
// list item or a Markdown heading ("- ", "* ", "• ", "3. ", "2) ", "## "), as model output uses.
// Scanned line by line: one regular expression over a whole paragraph overflowed the stack on a
// 50 MB paragraph.
const BREAK_AFTER_NEWLINE = /[ \t\r]*\n|[ \t]*(?:[-*•]|\d{1,3}[.)]|#{1,6})[ \t]/y;
const NON_SPACE = /\S/g;

export function splitParagraphSpans(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  NON_SPACE.lastIndex = 0;
  for (let found = NON_SPACE.exec(text); found; found = NON_SPACE.exec(text)) {
    const start = found.index;
    let newline = text.indexOf('\n', start);
    while (newline !== -1) {
      BREAK_AFTER_NEWLINE.lastIndex = newline + 1;
      if (BREAK_AFTER_NEWLINE.test(text)) break;
      newline = text.indexOf('\n', newline + 1);
    }
    const stop = newline === -1 ? text.length : newline;
    const end = start + text.slice(start, stop).trimEnd().length;
    spans.push({ text: text.slice(start, end), start, end });
    NON_SPACE.lastIndex = stop;
  }
  return spans;
}

export function splitParagraphs(text: string): string[] {
  return splitParagraphSpans(text).map((s) => s.text);
}
