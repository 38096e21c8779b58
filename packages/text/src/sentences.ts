import { BEFORE_NUMBER, MAY_END, NEVER_FINAL, SENTENCE_STARTERS, TITLES } from './abbreviations.js';
import { splitParagraphSpans } from './paragraphs.js';
import type { TextSpan } from './span.js';

// A candidate sentence end: terminal punctuation (including "...", ". . ." and "…"), then any
// closing quotes/brackets/emphasis marks, then whitespace or the end of the paragraph.
const CANDIDATE = /(?:\.(?:[ \t]\.){2,}|[.!?…]+)["'”’»)\]_*]*(?=\s|$)/gu;
// Opening marks skipped when looking at the first word of the next sentence.
const OPENERS = /^["'“‘«([_*]+/u;
const NEXT_WORD = /^[\p{L}\p{N}]+/u;
const LIST_MARKER = /^[([]?(?:\d{1,3}|[a-z]|[ivxlcdm]{1,6})$/i;
const ACRONYM = /^(?:\p{L}{1,2}\.)+\p{L}{1,2}$/u;
const HAS_WORD_CHAR = /[\p{L}\p{N}]/u;

type Next = { kind: 'lower' | 'upper' | 'digit' | 'other'; word: string };

function nextWord(text: string, from: number): Next {
  let i = from;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  const rest = text.slice(i, i + 64).replace(OPENERS, '');
  const word = NEXT_WORD.exec(rest)?.[0] ?? '';
  const c = rest[0] ?? '';
  if (/\p{Ll}/u.test(c)) return { kind: 'lower', word };
  if (/\p{Lu}|\p{Lt}/u.test(c)) return { kind: 'upper', word };
  if (/\p{N}/u.test(c)) return { kind: 'digit', word };
  return { kind: 'other', word };
}

// The word (letters and inner periods) that ends right before position `end`.
function wordBefore(text: string, end: number): string {
  let i = end;
  while (i > 0 && /[\p{L}\p{N}.]/u.test(text[i - 1]!)) i--;
  return text.slice(i, end).replace(/^\.+/, '');
}

function isBoundary(para: string, sentenceStart: number, m: RegExpExecArray): boolean {
  const punct = m[0].replace(/["'”’»)\]_*]+$/u, '');
  const next = nextWord(para, m.index + m[0].length);
  const sentence = para.slice(sentenceStart, m.index);
  // Never leave a sentence with no words ("...", "1.", "(a)"): it belongs to what follows.
  if (!HAS_WORD_CHAR.test(sentence) || LIST_MARKER.test(sentence.trim())) return false;
  if (next.kind === 'lower') return false;
  if (/[!?]/.test(punct)) return true;
  const ellipsis = punct.length > 1 || punct === '…';
  if (ellipsis) return next.kind === 'upper' || next.kind === 'other';

  const prev = wordBefore(para, m.index);
  const key = prev.toLowerCase();
  if (TITLES.has(key) || NEVER_FINAL.has(key)) return false;
  if (BEFORE_NUMBER.has(key) && next.kind === 'digit') return false;
  if (MAY_END.has(key)) return true;
  // Initials ("J. K. Rowling") and acronyms ("U.S. Army") usually continue a name.
  if (/^\p{Lu}$/u.test(prev) || ACRONYM.test(prev)) {
    return next.kind !== 'upper' || SENTENCE_STARTERS.has(next.word);
  }
  return true;
}

function pushTrimmed(spans: TextSpan[], text: string, start: number, end: number): void {
  const raw = text.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const body = raw.trim();
  if (body) spans.push({ text: body, start: start + lead, end: start + lead + body.length });
}

// Splits text into sentences and returns each with its offsets in `text`. Every non-space
// character belongs to exactly one span and spans are in order, so the text between spans is
// whitespace only. Blank lines always end a sentence; single line breaks never do.
export function splitSentenceSpans(text: string): TextSpan[] {
  const spans: TextSpan[] = [];
  for (const para of splitParagraphSpans(text)) {
    const p = para.text;
    let start = 0;
    CANDIDATE.lastIndex = 0;
    for (let m = CANDIDATE.exec(p); m; m = CANDIDATE.exec(p)) {
      const end = m.index + m[0].length;
      if (end >= p.length) break;
      if (!isBoundary(p, start, m)) continue;
      pushTrimmed(spans, text, para.start + start, para.start + end);
      start = end;
    }
    pushTrimmed(spans, text, para.start + start, para.end);
  }
  return spans;
}

export function splitSentences(text: string): string[] {
  return splitSentenceSpans(text).map((s) => s.text);
}
