// Model and dataset text (summaries, opinions, verdicts) may carry Markdown bold: `**Knicks**`.
// The page shows it as text with the bold as <strong>, never as HTML: these runs are plain strings.

export interface TextRun {
  text: string;
  bold: boolean;
}

// A pair of ** around text that neither starts nor ends with a space; a lone ** stays as written.
const BOLD = /\*\*(?=\S)([\s\S]*?\S)\*\*/g;

export function textRuns(text: string): TextRun[] {
  const runs: TextRun[] = [];
  let at = 0;
  for (const m of text.matchAll(BOLD)) {
    if (m.index > at) runs.push({ text: text.slice(at, m.index), bold: false });
    runs.push({ text: m[1]!, bold: true });
    at = m.index + m[0].length;
  }
  if (at < text.length || runs.length === 0) runs.push({ text: text.slice(at), bold: false });
  return runs;
}
