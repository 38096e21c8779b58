import { splitSentenceSpans } from '@precis/text';

// Rule-based artifact removal (METHODS.md §1.4): drops sentences that talk about the
// summarizing process or come from non-narrative matter, and strips phrases that reveal the
// chunk-by-chunk process. Nothing else is edited.

const UNIT = '(?:segment|excerpt|passage|chunk|portion|part|section|installment)';
const WHICH = '(?:this|the (?:current|present|following|previous|preceding|latest))';
const OF_STORY = '(?: of the (?:story|book|novel|text|narrative))?';
const PHRASE = `(?:in|during|throughout|within) ${WHICH} ${UNIT}${OF_STORY}`;
const LEADING_PHRASE = new RegExp(`^${PHRASE},?\\s+`, 'i');
// ", in this part of the story," between commas first, then before other punctuation.
const ENCLOSED_PHRASE = new RegExp(`,\\s+${PHRASE},`, 'gi');
const INLINE_PHRASE = new RegExp(`,?\\s+${PHRASE}(?=[,.;:!?])`, 'gi');

const NUMBER_WORD =
  '(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|first|second|third|fourth|fifth|last)';

const DROP: readonly RegExp[] = [
  // The summary talking about itself.
  /\b(?:the|this|our|previous|updated|running|merged|above|following|current|new) summar(?:y|ies)\b/i,
  /\b(?:to summari[sz]e|in summary)\b/i,
  // Headings and front/back matter.
  new RegExp(`^(?:chapter|book|part|volume|act|scene)\\s+(?:\\d+|[ivxlcdm]+|${NUMBER_WORD})\\s*[.:]?$`, 'i'),
  /^(?:contents|table of contents|preface|index|the end|finis)\s*[.:]?$/i,
  /\b(?:project gutenberg|gutenberg\.org|e-?book|all rights reserved|copyright|isbn)\b/i,
  /\b(?:acknowledg(?:e)?ments?|about the author|also by (?:the )?(?:same )?author|other works by)\b/i,
];

function capitalize(s: string): string {
  return s.replace(/^(["'“‘(]*)(\p{Ll})/u, (_, open: string, c: string) => open + c.toUpperCase());
}

export function removeArtifacts(summary: string): string {
  const out: string[] = [];
  let prevEnd = 0;
  for (const span of splitSentenceSpans(summary)) {
    const gap = summary.slice(prevEnd, span.start);
    prevEnd = span.end;
    if (DROP.some((re) => re.test(span.text))) continue;
    let s = span.text.replace(ENCLOSED_PHRASE, '').replace(INLINE_PHRASE, '');
    if (LEADING_PHRASE.test(s)) s = capitalize(s.replace(LEADING_PHRASE, ''));
    if (!/[\p{L}\p{N}]/u.test(s)) continue;
    // Keep paragraph breaks; any other gap becomes one space.
    if (out.length > 0) out.push(/\n[ \t]*\r?\n/.test(gap) ? '\n\n' : ' ');
    out.push(s);
  }
  return out.join('');
}
