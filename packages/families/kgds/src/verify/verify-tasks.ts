import {
  ConfigurationError,
  finishTaskWithJudgments,
  type JudgmentRow,
  runTemplate,
  type TaskKind,
} from '@precis/engine/family';
import { lexicallyInferred, lexicalOpinionError } from '@precis/engines';
import { createRng } from '@precis/metrics';
import {
  type KgdsErrorType,
  parseFeedbackChoice,
  parseNumberedErrorTypes,
  parseNumberedVerdicts,
} from '../prompts/kgds.parsers.js';
import {
  KGDS_ERRORS_TEMPLATE,
  KGDS_FACTS_TEMPLATE,
  KGDS_FEEDBACK_TEMPLATE,
  KGDS_OPINIONS_TEMPLATE,
} from '../prompts/kgds.templates.js';
import { formatParagraphs, formatUtterances, type KgdsFact } from '../sample.js';
import { askJudge, promptText, splitToFit } from './judge-calls.js';
import { judgmentRow, type KgdsVerifyPayload, type VerifyContext, verifyContext } from './verify-context.js';

const numbered = (items: readonly string[]) => items.map((t, i) => `${i + 1}. ${t}`).join('\n');

export interface FactVerdict {
  paragraphIndex: number;
  fact: string;
  key: boolean;
  inferred: boolean;
}

// KBSAF: one call per source paragraph listing its facts (split only to fit the context).
async function verifyFacts(
  v: VerifyContext,
): Promise<{ result: Record<string, unknown>; rows: JudgmentRow[] }> {
  const abs = v.parts.abs;
  if (abs === undefined)
    throw new ConfigurationError(`task ${v.task.id}: facts are verified for ABS-AOS summaries only`);
  let verdicts: FactVerdict[];
  let templateVersion: string | null = null;
  if (!v.call)
    verdicts = v.sample.facts.map((f) => ({ ...factOf(f), inferred: lexicallyInferred(f.text, abs) }));
  else {
    const call = v.call;
    const byParagraph = new Map<number, KgdsFact[]>();
    for (const f of v.sample.facts)
      byParagraph.set(f.paragraphIndex, [...(byParagraph.get(f.paragraphIndex) ?? []), f]);
    const window = v.ctx.modelInfo?.(call.model)?.contextWindow;
    const vars = (part: readonly KgdsFact[]) => ({
      summary: abs,
      count: part.length,
      facts: numbered(part.map((f) => f.text)),
    });
    // Sized with the template the judge will get (a spec may override it).
    const template = runTemplate(KGDS_FACTS_TEMPLATE, call.overrides);
    const parts = [...byParagraph.values()].flatMap((facts) =>
      splitToFit(facts, (part) => promptText(template, vars(part)), window),
    );
    const answers = await Promise.all(
      parts.map((part) =>
        askJudge(call, KGDS_FACTS_TEMPLATE, vars(part), (text, id) =>
          parseNumberedVerdicts(text, part.length, id),
        ),
      ),
    );
    templateVersion = answers[0]?.templateVersion ?? null;
    verdicts = parts.flatMap((part, i) =>
      part.map((f, k) => ({ ...factOf(f), inferred: answers[i]!.value[k]! })),
    );
  }
  const rows = verdicts.map((verdict, n) => judgmentRow(v, 'facts', n, { ...verdict }, templateVersion));
  return { result: { judge: v.judge, templateVersion, verdicts }, rows };
}

const factOf = (f: KgdsFact) => ({ paragraphIndex: f.paragraphIndex, fact: f.text, key: f.key });

// CAO recall, then the error type of every opinion the AOS does not convey.
async function verifyOpinions(
  v: VerifyContext,
): Promise<{ result: Record<string, unknown>; rows: JudgmentRow[] }> {
  const { opinions, utterances } = v.sample;
  const aos = v.parts.aos;
  let inferred: boolean[];
  let errors: KgdsErrorType[];
  let templateVersion: string | null = null;
  if (!v.call) {
    const speakers = [...new Set(utterances.map((u) => u.participant))];
    inferred = opinions.map((o) => lexicallyInferred(o, aos));
    errors = opinions.filter((_, i) => !inferred[i]).map((o) => lexicalOpinionError(o, aos, speakers));
  } else {
    const call = v.call;
    const asked = opinions.length
      ? await askJudge(
          call,
          KGDS_OPINIONS_TEMPLATE,
          { summary: aos, count: opinions.length, opinions: numbered(opinions) },
          (t, id) => parseNumberedVerdicts(t, opinions.length, id),
        )
      : { value: [], templateVersion: null };
    inferred = asked.value;
    templateVersion = asked.templateVersion;
    const missing = opinions.filter((_, i) => !inferred[i]);
    errors = missing.length
      ? (
          await askJudge(
            call,
            KGDS_ERRORS_TEMPLATE,
            {
              paragraphs: formatParagraphs(v.sample),
              utterances: formatUtterances(v.sample),
              summary: aos,
              count: missing.length,
              opinions: numbered(missing),
            },
            (t, id) => parseNumberedErrorTypes(t, missing.length, id),
          )
        ).value
      : [];
  }
  let e = 0;
  const verdicts = opinions.map((opinion, n) => ({
    opinion,
    inferred: inferred[n]!,
    ...(inferred[n] ? {} : { errorType: errors[e++]! }),
  }));
  const rows = verdicts.map((verdict, n) => judgmentRow(v, 'opinions', n, verdict, templateVersion));
  return { result: { judge: v.judge, templateVersion, verdicts }, rows };
}

// Gold EBS vs the model's, in an order drawn from the run seed, when they differ.
async function feedback(v: VerifyContext): Promise<{ result: Record<string, unknown>; rows: JudgmentRow[] }> {
  const ebs = v.parts.ebs;
  if (ebs === undefined || !v.call)
    throw new ConfigurationError(`task ${v.task.id}: feedback needs an EBS summary and a model judge`);
  const gold = [...v.sample.gold].sort((a, b) => a - b);
  const mine = [...ebs].sort((a, b) => a - b);
  if (gold.length === mine.length && gold.every((g, i) => g === mine[i]))
    return { result: { judge: v.judge, templateVersion: null, sameAsGold: true }, rows: [] };
  // Drawn from the run seed and what is judged (not ids a database chose): reruns agree.
  const goldFirst = createRng(`${v.spec.seed}:${v.payload.system}:${v.sample.externalId}:feedback`)() < 0.5;
  const [a, b] = goldFirst ? [gold, mine] : [mine, gold];
  const list = (xs: number[]) => (xs.length ? xs.join(', ') : '(none)');
  const { value: better, templateVersion } = await askJudge(
    v.call,
    KGDS_FEEDBACK_TEMPLATE,
    {
      paragraphs: formatParagraphs(v.sample),
      utterances: formatUtterances(v.sample),
      a: list(a),
      b: list(b),
    },
    (t, id) => parseFeedbackChoice(t, id),
  );
  const verdict = { goldFirst, better, goldWins: (better === 'A') === goldFirst };
  return {
    result: { judge: v.judge, templateVersion, sameAsGold: false, ...verdict },
    rows: [judgmentRow(v, 'feedback', 0, verdict, templateVersion)],
  };
}

function verifyKind(kind: string, run: typeof verifyFacts): TaskKind {
  return {
    kind,
    stage: 'verify',
    async handle(ctx, ref, raw, spec) {
      const v = await verifyContext(ctx, ref, raw as unknown as KgdsVerifyPayload, spec);
      const { result, rows } = await run(v);
      const changed = await finishTaskWithJudgments(ctx.db, ref.id, 'done', result, null, rows);
      return { persisted: changed ? ('done' as const) : ('skipped' as const) };
    },
  };
}

export const kgdsFactsKind = verifyKind('kgds-facts', verifyFacts);
export const kgdsOpinionsKind = verifyKind('kgds-opinions', verifyOpinions);
export const kgdsFeedbackKind = verifyKind('kgds-feedback', feedback);
