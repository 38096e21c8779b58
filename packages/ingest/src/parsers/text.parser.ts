import { basename, extname } from 'node:path';
import { lineColumnAt, wordCount } from '@precis/text';
import { gutenbergTitle, stripGutenbergBoilerplate } from '../gutenberg.js';
import { boundedParagraphs, boundedTitle } from '../limits.js';
import type { ParsedDataset } from '../types.js';

// A plain-text or Markdown book: one document; its paragraphs become 'source' chunks.
export function parseTextDataset(file: string, text: string): ParsedDataset {
  const title = gutenbergTitle(text) ?? basename(file, extname(file));
  const body = stripGutenbergBoilerplate(text);
  const offset = body.stripped ? text.indexOf(body.text) : 0;
  const spans = boundedParagraphs(body.text, { file, base: lineColumnAt(text, Math.max(0, offset)).line });
  const words = wordCount(body.text);
  return {
    kind: 'text',
    file,
    documents: [
      {
        externalId: basename(file),
        title: boundedTitle(title),
        text: body.text,
        data: {},
        metadata: {
          gutenbergBoilerplateRemoved: body.stripped,
          format: /\.(md|markdown)$/i.test(file) ? 'markdown' : 'text',
        },
        chunks: spans.map((span, i) => ({
          kind: 'paragraph',
          text: span.text,
          sourceIndex: i,
          metadata: { start: span.start, end: span.end },
        })),
      },
    ],
    counts: { documents: 1, paragraphs: spans.length, words, characters: body.text.length },
    metadata: {},
  };
}
