import { producerOf } from '@precis/engine/family';
import { sentencesOf, TEXTRANK_ENGINE, textRankSummary } from '@precis/engines';
import { chunkByTokens } from '@precis/text';
import { parseGorText } from '../prompts/gor.parsers.js';
import { GOR_SUMMARY_TEMPLATE } from '../prompts/gor.templates.js';
import { formatMaterials } from './graph-step.js';
import { askSystem, GorTaskError, nodeTexts, type StepContext } from './step-context.js';

// The materials a summary is written from: the ranked nodes' texts, best first, or (context-window)
// the meeting from its start, cut to the window.
function materialsOf(s: StepContext): { materials: string[]; cut: boolean } {
  if (s.settings.strategy === 'context-window') {
    const [first] = chunkByTokens(s.meeting.text, { size: s.settings.contextTokens });
    return { materials: [first?.text ?? ''], cut: (first?.end ?? 0) < s.meeting.text.length };
  }
  const ranked = s.payload.ranked?.nodes;
  if (!ranked?.length) throw new GorTaskError(`task ${s.ref.id}: no ranked nodes in the payload`);
  const texts = nodeTexts(s);
  return { materials: ranked.map((n) => texts[n]!), cut: false };
}

// The global summary (METHODS.md §5.7) by the system's model, or TextRank over the materials.
export async function summaryStep(s: StepContext) {
  const { materials, cut } = materialsOf(s);
  const text =
    s.system.model === undefined
      ? textRankSummary(sentencesOf(materials.join('\n\n')), { budgetWords: s.settings.summaryWords })
      : await askSystem(
          s,
          GOR_SUMMARY_TEMPLATE,
          {
            materials: s.settings.strategy === 'context-window' ? materials[0]! : formatMaterials(materials),
            query: s.meeting.globalQuery,
          },
          parseGorText,
          s.system.params.temperature,
        );
  if (text === '') throw new GorTaskError(`meeting ${s.meeting.externalId}: the summary is empty`);
  return {
    text,
    generations: 1,
    cut,
    producer: s.system.model !== undefined ? producerOf(s.system) : `engine:${TEXTRANK_ENGINE}`,
  };
}
