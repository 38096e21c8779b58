export { chunkByParagraphs, chunkBySentences, chunkByTokens, type TextChunk } from './chunks.js';
export { jsonDepthOverflow, lineColumnAt } from './json-position.js';
export { splitParagraphSpans, splitParagraphs } from './paragraphs.js';
export { splitSentenceSpans, splitSentences } from './sentences.js';
export type { TextSpan } from './span.js';
export { formatTextTable } from './table.js';
export {
  countTokens,
  DEFAULT_ENCODING,
  decodeTokens,
  ENCODINGS,
  type Encoding,
  encodeTokens,
  getEncoder,
  isEncoding,
  tokenOffsets,
} from './tokens.js';
export {
  ngramKeys,
  ngrams,
  novelNgramShare,
  repeatedNgramShare,
  truncateWords,
  wordCount,
  words,
} from './words.js';
