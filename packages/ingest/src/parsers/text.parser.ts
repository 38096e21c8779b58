import { basename, extname } from 'node:path';
import { splitParagraphSpans, wordCount } from '@precis/text';
import { gutenbergTitle, stripGutenbergBoilerplate } from '../gutenberg.js';
import type { ParsedDataset } from '../types.js';

// A plain-text or Markdown book: one document; its paragraphs become 'source' chunks.
export function parseTextDataset(file: string, text: string): ParsedDataset {
  const title = gutenbergTitle(text) ?? basename(file, extname(file));
  const body = stripGutenbergBoilerplate(text);
  const spans = splitParagraphSpans(body.text);
  const words = wordCount(body.text);
  return {
    kind: 'text',
    file,
    documents: [
      {
        externalId: basename(file),
        title,
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
