import {
  expectArray,
  expectInteger,
  expectObject,
  expectString,
  type JsonObject,
  type ParsedChunk,
  type ParsedDataset,
  type ParsedDocument,
  parseJsonText,
  RecordContext,
  requireField,
} from '@precis/ingest';

// KGDS fact types (METHODS.md §2.1): BSPAF 1 key, 2 non-key, 3 intra-repetitive;
// BNPAF 0 non-supporting, 3 intra-repetitive, 4/5/6 masked conflicting.
const BSPAF_TYPES = new Set([1, 2, 3]);
const BNPAF_TYPES = new Set([0, 3, 4, 5, 6]);
export const KGDS_KEY_FACT_TYPE = 1;
export const KGDS_NON_SUPPORTING_FACT_TYPE = 0;

interface FactGroup {
  paragraphIndex: number;
  facts: { text: string; type: number }[];
}

export function parseKgdsDataset(file: string, text: string, onRecord?: (n: number) => void): ParsedDataset {
  const root = parseJsonText(file, text);
  const rootCtx: RecordContext = new RecordContext(file, '(top level)');
  if (!Array.isArray(root)) {
    rootCtx.fail(
      undefined,
      'expected a JSON array of KGDS samples',
      'use benchmark/KGDS.json from the KGDS release',
    );
  }
  if (root.length === 0)
    rootCtx.fail(undefined, 'the array holds no samples', 'check that the file is complete');

  const documents: ParsedDocument[] = [];
  const counts = {
    documents: 0,
    paragraphs: 0,
    supportingParagraphs: 0,
    utterances: 0,
    opinions: 0,
    keyFacts: 0,
    nonSupportingFacts: 0,
  };
  root.forEach((sample, i) => {
    const doc = parseSample(new RecordContext(file, `[${i}]`), sample, i);
    documents.push(doc.document);
    counts.documents++;
    counts.paragraphs += doc.paragraphs;
    counts.supportingParagraphs += doc.supporting;
    counts.utterances += doc.utterances;
    counts.opinions += doc.opinions;
    counts.keyFacts += doc.keyFacts;
    counts.nonSupportingFacts += doc.nonSupportingFacts;
    onRecord?.(i + 1);
  });
  return { kind: 'kgds', file, documents, counts, metadata: {} };
}

// SBK: the article's paragraphs, by paragraph_index (each also a chunk).
function parseParagraphs(
  ctx: RecordContext,
  sample: Record<string, unknown>,
  chunks: ParsedChunk[],
): Map<number, string> {
  const sbk = expectArray(ctx, requireField(ctx, sample, 'SBK', ''), 'SBK');
  if (sbk.length === 0) ctx.fail('SBK', 'the article has no paragraphs');
  const paragraphs = new Map<number, string>();
  sbk.forEach((p, j) => {
    const base = `SBK[${j}]`;
    const obj = expectObject(ctx, p, base);
    const index = expectInteger(
      ctx,
      requireField(ctx, obj, 'paragraph_index', base),
      `${base}.paragraph_index`,
    );
    const paragraphText = expectString(
      ctx,
      requireField(ctx, obj, 'paragraph_text', base),
      `${base}.paragraph_text`,
      {
        nonEmpty: true,
      },
    );
    if (paragraphs.has(index)) {
      ctx.fail(
        `${base}.paragraph_index`,
        `duplicate paragraph_index ${index}`,
        'give every paragraph its own index',
      );
    }
    paragraphs.set(index, paragraphText);
    chunks.push({ kind: 'paragraph', text: paragraphText, sourceIndex: index, metadata: {} });
  });
  return paragraphs;
}

// KGD: the discussion's utterances (each a chunk naming its participant).
function parseUtterances(
  ctx: RecordContext,
  sample: Record<string, unknown>,
  chunks: ParsedChunk[],
): { participants: Set<string>; utterances: number } {
  const kgd = expectArray(ctx, requireField(ctx, sample, 'KGD', ''), 'KGD');
  const participants = new Set<string>();
  kgd.forEach((u, j) => {
    const base = `KGD[${j}]`;
    const obj = expectObject(ctx, u, base);
    const participant = expectString(
      ctx,
      requireField(ctx, obj, 'participant', base),
      `${base}.participant`,
      {
        nonEmpty: true,
      },
    );
    const utterance = expectString(ctx, requireField(ctx, obj, 'utterance', base), `${base}.utterance`, {
      nonEmpty: true,
    });
    participants.add(participant);
    chunks.push({ kind: 'utterance', text: utterance, sourceIndex: j, metadata: { participant } });
  });
  return { participants, utterances: kgd.length };
}

// BSP: the gold supporting paragraphs, each an SBK paragraph listed once.
function parseSupporting(
  ctx: RecordContext,
  sample: Record<string, unknown>,
  paragraphs: Map<number, string>,
): number[] {
  const bsp = expectArray(ctx, requireField(ctx, sample, 'BSP', ''), 'BSP');
  const supporting: number[] = [];
  bsp.forEach((p, j) => {
    const base = `BSP[${j}]`;
    const obj = expectObject(ctx, p, base);
    const index = expectInteger(
      ctx,
      requireField(ctx, obj, 'paragraph_index', base),
      `${base}.paragraph_index`,
    );
    const known = paragraphs.get(index);
    if (known === undefined) {
      ctx.fail(
        `${base}.paragraph_index`,
        `paragraph ${index} is not in SBK`,
        'gold paragraphs must be article paragraphs',
      );
    }
    if (obj.paragraph_text !== undefined && obj.paragraph_text !== known) {
      ctx.fail(`${base}.paragraph_text`, `differs from the text of SBK paragraph ${index}`);
    }
    if (supporting.includes(index)) ctx.fail(`${base}.paragraph_index`, `paragraph ${index} listed twice`);
    supporting.push(index);
  });
  return supporting;
}

function parseSample(ctx: RecordContext, value: unknown, i: number) {
  const sample = expectObject(ctx, value, undefined);
  const chunks: ParsedChunk[] = [];

  const paragraphs = parseParagraphs(ctx, sample, chunks);
  const { participants, utterances } = parseUtterances(ctx, sample, chunks);
  const supporting = parseSupporting(ctx, sample, paragraphs);

  const cao = expectArray(ctx, requireField(ctx, sample, 'CAO', ''), 'CAO');
  const opinions = cao.map((o, j) => expectString(ctx, o, `CAO[${j}]`, { nonEmpty: true }));

  const bspaf = parseFactGroups(ctx, sample, 'BSPAF', BSPAF_TYPES, paragraphs);
  const bnpaf = parseFactGroups(ctx, sample, 'BNPAF', BNPAF_TYPES, paragraphs);
  const countType = (groups: FactGroup[], type: number) =>
    groups.reduce((n, g) => n + g.facts.filter((f) => f.type === type).length, 0);

  const data: JsonObject = {
    supportingParagraphs: supporting,
    participants: [...participants],
    opinions,
    supportingFacts: bspaf.map(groupJson),
    nonSupportingFacts: bnpaf.map(groupJson),
  };
  return {
    document: {
      externalId: String(i),
      title: null,
      text: [...paragraphs.values()].join('\n\n'),
      data,
      metadata: { sampleIndex: i },
      chunks,
    } satisfies ParsedDocument,
    paragraphs: paragraphs.size,
    supporting: supporting.length,
    utterances,
    opinions: opinions.length,
    keyFacts: countType(bspaf, KGDS_KEY_FACT_TYPE),
    nonSupportingFacts: countType(bnpaf, KGDS_NON_SUPPORTING_FACT_TYPE),
  };
}

function groupJson(group: FactGroup): JsonObject {
  return {
    paragraphIndex: group.paragraphIndex,
    facts: group.facts.map((f) => ({ text: f.text, type: f.type })),
  };
}

function parseFactGroups(
  ctx: RecordContext,
  sample: Record<string, unknown>,
  key: 'BSPAF' | 'BNPAF',
  allowed: Set<number>,
  paragraphs: Map<number, string>,
): FactGroup[] {
  const groups = expectArray(ctx, requireField(ctx, sample, key, ''), key);
  return groups.map((g, j) => {
    const base = `${key}[${j}]`;
    const obj = expectObject(ctx, g, base);
    const paragraphIndex = expectInteger(
      ctx,
      requireField(ctx, obj, 'paragraph_index', base),
      `${base}.paragraph_index`,
    );
    if (!paragraphs.has(paragraphIndex))
      ctx.fail(`${base}.paragraph_index`, `paragraph ${paragraphIndex} is not in SBK`);
    const facts = expectArray(ctx, requireField(ctx, obj, 'atomic_facts', base), `${base}.atomic_facts`);
    return {
      paragraphIndex,
      facts: facts.map((f, k) => {
        const fbase = `${base}.atomic_facts[${k}]`;
        const fact = expectObject(ctx, f, fbase);
        const factText = expectString(
          ctx,
          requireField(ctx, fact, 'atomic_fact', fbase),
          `${fbase}.atomic_fact`,
          {
            nonEmpty: true,
          },
        );
        const type = expectInteger(ctx, requireField(ctx, fact, 'type', fbase), `${fbase}.type`);
        if (!allowed.has(type)) {
          ctx.fail(
            `${fbase}.type`,
            `unknown ${key} fact type ${type}`,
            `use one of ${[...allowed].join(', ')}`,
          );
        }
        return { text: factText, type };
      }),
    };
  });
}
