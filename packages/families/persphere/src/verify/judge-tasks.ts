import type { TaskKind } from '@precis/engine/family';
import {
  firstSentence,
  lexicallyEntails,
  lexicalRating,
  lexicalReference,
  lexicalStance,
} from '@precis/engines';
import {
  parseExtractedPerspective,
  parsePersphereSummary,
  parseRating,
  parseStance,
  parseYesNo,
  renderPersphereSummaryXml,
} from '../prompts/persphere.parsers.js';
import {
  PERSPHERE_ENTAIL_TEMPLATE,
  PERSPHERE_EXTRACT_TEMPLATE,
  PERSPHERE_RATING_TEMPLATE,
  PERSPHERE_REFERENCE_TEMPLATE,
  PERSPHERE_STANCE_TEMPLATE,
} from '../prompts/persphere.templates.js';
import { corpusTexts, goldEvidence, goldenSummary } from '../query.js';
import type { PerspherePart, PersphereVerifyPayload } from './persphere-metric.js';
import { ask, loadVerifyContext, type VerifyContext } from './verify-context.js';

// Every gold perspective with its claim index (0, 1) and the claim's statement.
const goldPerspectives = (v: VerifyContext) =>
  v.query.claims.flatMap((c, claim) => c.perspectives.map((p) => ({ claim, statement: c.statement, ...p })));

const docText = async (v: VerifyContext, id: string) =>
  (await corpusTexts(v.db, v.query.corpus.datasetId, [id]))[0]!.text;

// Overall@k: the judge rates the response against the golden summary, 1–10 (METHODS.md §3.3).
async function overall(v: VerifyContext) {
  const golden = goldenSummary(v.query);
  if (!v.judge.call) {
    const cited = [...new Set([...v.retrieved, ...goldEvidence(v.query)])];
    return {
      rating: lexicalRating(parsePersphereSummary(v.summaryText, cited), golden),
      judge: v.judge.label,
    };
  }
  const vars = { query: v.query.text, golden: renderPersphereSummaryXml(golden), response: v.summaryText };
  return { rating: await ask(v.judge, PERSPHERE_RATING_TEMPLATE, vars, parseRating), judge: v.judge.label };
}

// Rp@k: a gold perspective counts when one of its evidence documents is in T_k and the
// perspective the judge extracts from that document (for the gold claim) entails it.
async function rp(v: VerifyContext) {
  const top = new Set(v.retrieved);
  const verdicts: {
    perspective: string;
    document: string | null;
    extracted: string | null;
    entailed: boolean;
  }[] = [];
  for (const g of goldPerspectives(v)) {
    const doc = g.evidence.find((d) => top.has(d));
    if (doc === undefined) {
      verdicts.push({ perspective: g.text, document: null, extracted: null, entailed: false });
      continue;
    }
    const text = await docText(v, doc);
    const extracted = v.judge.call
      ? await ask(
          v.judge,
          PERSPHERE_EXTRACT_TEMPLATE,
          { claim: g.statement, document: text },
          parseExtractedPerspective,
        )
      : firstSentence(text);
    const entailed = v.judge.call
      ? await ask(v.judge, PERSPHERE_ENTAIL_TEMPLATE, { premise: extracted, hypothesis: g.text }, parseYesNo)
      : lexicallyEntails(extracted, g.text);
    verdicts.push({ perspective: g.text, document: doc, extracted, entailed });
  }
  return { verdicts, judge: v.judge.label };
}

// Stance detection (METHODS.md §3.5), by the system's own summarizer: which claim each gold
// perspective supports.
async function stance(v: VerifyContext) {
  const [c1, c2] = v.query.claims;
  const labels: { gold: 1 | 2; predicted: 1 | 2 }[] = [];
  for (const g of goldPerspectives(v)) {
    const predicted = v.system.call
      ? await ask(
          v.system,
          PERSPHERE_STANCE_TEMPLATE,
          { perspective: g.text, claim1: c1.statement, claim2: c2.statement },
          parseStance,
        )
      : lexicalStance(g.text, c1.statement, c2.statement);
    labels.push({ gold: (g.claim + 1) as 1 | 2, predicted });
  }
  return { labels, judge: v.system.label };
}

// Reference determination: each gold perspective with its evidence document (a reference) and
// the evidence of the other claim's first perspective (not one), by the system's summarizer.
async function reference(v: VerifyContext) {
  const labels: { gold: boolean; predicted: boolean; document: string }[] = [];
  for (const g of goldPerspectives(v)) {
    const other = v.query.claims[1 - g.claim]!.perspectives[0]?.evidence[0];
    const pairs = [{ doc: g.evidence[0]!, gold: true }, ...(other ? [{ doc: other, gold: false }] : [])];
    for (const { doc, gold } of pairs) {
      const text = await docText(v, doc);
      const predicted = v.system.call
        ? await ask(
            v.system,
            PERSPHERE_REFERENCE_TEMPLATE,
            { perspective: g.text, document: text },
            (t, id) => parseYesNo(t, id),
          )
        : lexicalReference(g.text, text);
      labels.push({ gold, predicted, document: doc });
    }
  }
  return { labels, judge: v.system.label };
}

const PARTS: Record<PerspherePart, (v: VerifyContext) => Promise<Record<string, unknown>>> = {
  overall,
  rp,
  stance,
  reference,
};

function verifyKind(part: PerspherePart): TaskKind {
  return {
    kind: `persphere-${part}`,
    stage: 'verify',
    async handle(ctx, ref, raw, spec) {
      const v = await loadVerifyContext(ctx, ref, raw as unknown as PersphereVerifyPayload, spec);
      return { result: await PARTS[part](v) };
    },
  };
}

export const persphereVerifyKinds: TaskKind[] = (['overall', 'rp', 'stance', 'reference'] as const).map(
  verifyKind,
);
