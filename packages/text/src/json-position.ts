// Positions in text, for errors that point at a line and column (dataset files, benchmark specs).

// 1-based line and column of a character offset in text.
export function lineColumnAt(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lastNewline = -1;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lastNewline = i;
    }
  }
  return { line, column: end - lastNewline };
}

// The offset of the first `[` or `{` that opens level maxDepth + 1 of JSON text (brackets inside
// strings do not count), or -1: one linear pass, so any input is safe to measure.
export function jsonDepthOverflow(text: string, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > maxDepth) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return -1;
}
