import { OutputParseError } from '@precis/prompts';

export interface PerspherePerspective {
  text: string;
  // Document ids in the order cited, each once.
  refs: string[];
}

export interface PersphereClaim {
  statement: string;
  perspectives: PerspherePerspective[];
}

export interface PersphereSummary {
  claims: [PersphereClaim, PersphereClaim];
}

interface XmlElement {
  name: string;
  attrs: Map<string, string>;
  children: XmlElement[];
  text: string;
}

type ErrorFactory = (message: string) => OutputParseError;

// The elements each element may contain; statement and perspective hold text only. Anything
// else in the summary is refused rather than guessed at.
const CHILDREN: Readonly<Record<string, readonly string[]>> = {
  summary: ['claim'],
  claim: ['statement', 'perspective'],
  statement: [],
  perspective: [],
};

const TAG = /<(\/?)([A-Za-z][\w.-]*)((?:\s+[A-Za-z_][\w.-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/y;
const ATTRIBUTE = /([A-Za-z_][\w.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITY = /&(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);/g;
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

// A bare "&" that starts no known entity is kept as written: models often leave it unescaped.
function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, name: string) => {
    const named = NAMED_ENTITIES[name];
    if (named !== undefined) return named;
    const code = name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

function textContent(raw: string): string {
  return decodeEntities(raw.replace(/\s+/g, ' ').trim());
}

function excerpt(text: string, at: number): string {
  return JSON.stringify(text.slice(at, at + 40));
}

function readAttributes(text: string, err: ErrorFactory): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of text.matchAll(ATTRIBUTE)) {
    if (attrs.has(m[1]!)) throw err(`attribute ${m[1]} given twice`);
    attrs.set(m[1]!, decodeEntities(m[2] ?? m[3] ?? ''));
  }
  return attrs;
}

function addText(el: XmlElement, raw: string, err: ErrorFactory): void {
  if (CHILDREN[el.name]!.length === 0) {
    el.text += raw;
  } else if (raw.trim() !== '') {
    throw err(`text ${JSON.stringify(raw.trim().slice(0, 40))} directly inside <${el.name}>`);
  }
}

// Reads the one <summary> element of a reply (text or a code fence around it is ignored) into a
// tree, refusing unknown elements, mismatched or unclosed tags and stray "<".
function readSummaryElement(output: string, err: ErrorFactory): XmlElement {
  const opens = [...output.matchAll(/<summary[\s/>]/g)];
  if (opens.length === 0) throw err('no <summary> element in the reply');
  if (opens.length > 1) throw err(`${opens.length} <summary> elements in the reply, expected exactly one`);
  const stack: XmlElement[] = [];
  let i = opens[0]!.index;
  while (i < output.length) {
    const lt = output.indexOf('<', i);
    if (lt === -1) break;
    if (lt > i) addText(stack.at(-1)!, output.slice(i, lt), err);
    TAG.lastIndex = lt;
    const m = TAG.exec(output);
    if (!m) throw err(`malformed tag at ${excerpt(output, lt)}`);
    const [whole, closing, name, attrText, selfClosing] = m;
    i = lt + whole.length;
    if (closing) {
      if (attrText.trim() !== '' || selfClosing) throw err(`malformed closing tag ${JSON.stringify(whole)}`);
      const open = stack.pop()!;
      if (open.name !== name) throw err(`</${name}> found while <${open.name}> is unclosed`);
      if (stack.length === 0) return open;
      continue;
    }
    const parent = stack.at(-1);
    const el: XmlElement = { name, attrs: readAttributes(attrText, err), children: [], text: '' };
    if (parent) {
      if (!CHILDREN[parent.name]!.includes(name)) throw err(`unexpected <${name}> inside <${parent.name}>`);
      parent.children.push(el);
    }
    if (!selfClosing) stack.push(el);
    else if (!parent) return el;
  }
  throw err(`unclosed <${stack.at(-1)!.name}> tag`);
}

// The allowed ids named in an error, cut short when a query has many documents.
function describeAllowed(allowed: readonly string[]): string {
  if (allowed.length === 0) return 'none';
  const shown = allowed.slice(0, 20).join(', ');
  return allowed.length > 20 ? `${shown}, ... (${allowed.length - 20} more)` : shown;
}

function readRefs(
  where: string,
  el: XmlElement,
  allowedDocIds: readonly string[],
  allowed: ReadonlySet<string>,
  err: ErrorFactory,
): string[] {
  const raw = el.attrs.get('refs');
  if (raw === undefined) throw err(`${where} has no refs attribute`);
  const ids = raw.split(/[\s,]+/).filter((id) => id !== '');
  if (ids.length === 0) throw err(`${where} has refs="${raw}", which lists no document id`);
  for (const id of ids) {
    if (!allowed.has(id))
      throw err(`${where} cites unknown document id "${id}" (allowed: ${describeAllowed(allowedDocIds)})`);
  }
  return [...new Set(ids)];
}

function readClaim(
  el: XmlElement,
  n: number,
  allowedDocIds: readonly string[],
  allowed: ReadonlySet<string>,
  err: ErrorFactory,
): PersphereClaim {
  const statements = el.children.filter((c) => c.name === 'statement');
  if (statements.length !== 1)
    throw err(`claim ${n} has ${statements.length} <statement> elements, expected exactly 1`);
  const statement = textContent(statements[0]!.text);
  if (statement === '') throw err(`claim ${n} has an empty <statement>`);
  const elements = el.children.filter((c) => c.name === 'perspective');
  if (elements.length === 0) throw err(`claim ${n} has no <perspective>`);
  const perspectives = elements.map((p, j) => {
    const where = `claim ${n}, perspective ${j + 1}`;
    const text = textContent(p.text);
    if (text === '') throw err(`${where} is empty`);
    return { text, refs: readRefs(where, p, allowedDocIds, allowed, err) };
  });
  return { statement, perspectives };
}

// A summary in the XML format of the PerSphere templates. Text is whitespace-normalized and
// entity-decoded; every cited id must be one of allowedDocIds (the documents shown).
export function parsePersphereSummary(
  output: string,
  allowedDocIds: readonly string[],
  templateId = 'persphere.summary.vanilla',
): PersphereSummary {
  const err: ErrorFactory = (message) => new OutputParseError(templateId, message, output);
  const claims = readSummaryElement(output, err).children;
  if (claims.length !== 2)
    throw err(`${claims.length} claim${claims.length === 1 ? '' : 's'}, expected exactly 2`);
  const allowed = new Set(allowedDocIds);
  return {
    claims: [
      readClaim(claims[0]!, 1, allowedDocIds, allowed, err),
      readClaim(claims[1]!, 2, allowedDocIds, allowed, err),
    ],
  };
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// The canonical XML of a summary, as shown to the judge and stored; parsePersphereSummary reads
// it back unchanged (for parsed summaries: normalized text, ids without spaces or commas).
export function renderPersphereSummaryXml(summary: PersphereSummary): string {
  const lines = ['<summary>'];
  summary.claims.forEach((claim, i) => {
    lines.push(`  <claim id="${i + 1}">`, `    <statement>${escapeXml(claim.statement)}</statement>`);
    for (const p of claim.perspectives) {
      lines.push(
        `    <perspective refs="${escapeXml(p.refs.join(', '))}">${escapeXml(p.text)}</perspective>`,
      );
    }
    lines.push('  </claim>');
  });
  lines.push('</summary>');
  return lines.join('\n');
}

// --- judge answers ---

// The value of the one "<label>: ..." line, which must be the last non-empty line. Bold markers
// are dropped and the label's case is free.
function finalLabelledValue(output: string, label: string, templateId: string): string {
  const lines = output
    .split('\n')
    .map((line) => line.replace(/\*+/g, '').trim())
    .filter((line) => line !== '');
  const pattern = new RegExp(`^${label}\\s*:\\s*(.*)$`, 'i');
  const hits = lines.flatMap((line, i) => {
    const m = line.match(pattern);
    return m ? [{ i, value: m[1]!.trim() }] : [];
  });
  if (hits.length === 0) throw new OutputParseError(templateId, `no "${label}:" line in the reply`, output);
  if (hits.length > 1)
    throw new OutputParseError(
      templateId,
      `${hits.length} "${label}:" lines in the reply, expected exactly one`,
      output,
    );
  if (hits[0]!.i !== lines.length - 1)
    throw new OutputParseError(templateId, `text after the "${label}:" line`, output);
  return hits[0]!.value;
}

function answerWord(output: string, templateId: string): string {
  return finalLabelledValue(output, 'Answer', templateId).replace(/\.$/, '').trim().toLowerCase();
}

// A last line "Answer: yes" or "Answer: no" (persphere.judge.entail, persphere.judge.reference).
export function parseYesNo(output: string, templateId: string): boolean {
  const word = answerWord(output, templateId);
  if (word === 'yes') return true;
  if (word === 'no') return false;
  throw new OutputParseError(templateId, `expected "Answer: yes" or "Answer: no", got "${word}"`, output);
}

// A last line "Answer: 1" or "Answer: 2": the claim the perspective supports.
export function parseStance(output: string, templateId = 'persphere.judge.stance'): 1 | 2 {
  const word = answerWord(output, templateId);
  if (word === '1') return 1;
  if (word === '2') return 2;
  throw new OutputParseError(templateId, `expected "Answer: 1" or "Answer: 2", got "${word}"`, output);
}

const RATING = /rating\s*:\s*\[\[([^\]]*)\]\]/gi;

// "Rating: [[n]]" with an integer 1-10; the same rating repeated counts once, two different
// ratings are refused.
export function parseRating(output: string, templateId = 'persphere.judge.rating'): number {
  const raws = [...output.replace(/\*+/g, '').matchAll(RATING)].map((m) => m[1]!.trim());
  if (raws.length === 0) throw new OutputParseError(templateId, 'no "Rating: [[n]]" in the reply', output);
  for (const raw of raws) {
    if (!/^\d+$/.test(raw))
      throw new OutputParseError(templateId, `rating "${raw}" is not an integer`, output);
  }
  const values = [...new Set(raws.map(Number))];
  if (values.length > 1)
    throw new OutputParseError(
      templateId,
      `${values.length} different ratings (${values.join(', ')}), expected exactly one`,
      output,
    );
  const value = values[0]!;
  if (value < 1 || value > 10)
    throw new OutputParseError(templateId, `rating ${value} is outside 1-10`, output);
  return value;
}

const QUOTED = /^(["“'‘])([\s\S]*)(["”'’])(\.?)$/;
const CLOSING_QUOTE: Readonly<Record<string, string>> = { '"': '"', '“': '”', "'": "'", '‘': '’' };
const NO_PERSPECTIVE =
  /^(?:n\/?a|none|nothing|null|-+|\.+|…)\.?$|^(?:i['’]?m sorry|sorry\b|i cannot|i can['’]?t|i am unable|i['’]m unable|as an ai)/i;

// The last line "Perspective: <one sentence>", quotes around the sentence removed. A placeholder
// or refusal instead of a sentence is an error, never an empty perspective.
export function parseExtractedPerspective(output: string, templateId = 'persphere.judge.extract'): string {
  let text = finalLabelledValue(output, 'Perspective', templateId);
  const quoted = text.match(QUOTED);
  if (quoted && CLOSING_QUOTE[quoted[1]!] === quoted[3]) {
    const inner = quoted[2]!.trim();
    text = quoted[4] && !/[.!?]$/.test(inner) ? `${inner}.` : inner;
  }
  if (text === '') throw new OutputParseError(templateId, 'the perspective is empty', output);
  if (NO_PERSPECTIVE.test(text))
    throw new OutputParseError(templateId, `no perspective given (${JSON.stringify(text)})`, output);
  return text;
}
