import type { LeaderboardRow, LeaderboardSection } from '@precis/contracts';
import { SECTION_ENGINE_FIELDS, type SectionJson, type SectionRowJson } from '@precis/engine';

function toProtoRow(r: SectionRowJson): LeaderboardRow {
  const own = Object.fromEntries(Object.entries(r).filter(([k]) => !SECTION_ENGINE_FIELDS.has(k)));
  return {
    system: r.system,
    ...(r.rank === null ? {} : { rank: r.rank }),
    rankLabel: r.rankLabel,
    ...(r.score === null ? {} : { score: r.score }),
    ...(r.ciLow === null ? {} : { ciLow: r.ciLow }),
    ...(r.ciHigh === null ? {} : { ciHigh: r.ciHigh }),
    work: {
      summariesExpected: r.work.summaries.expected,
      summariesFailed: r.work.summaries.failed,
      judgmentsExpected: r.work.judgments.expected,
      judgmentsFailed: r.work.judgments.failed,
    },
    status: r.status,
    usage: r.usage,
    fieldsJson: JSON.stringify(own),
  };
}

// A leaderboard of the JSON report as GetRunReport gives it: the same fields, the family's own
// ones as JSON.
export function toProtoSection(s: SectionJson): LeaderboardSection {
  return {
    key: s.key,
    family: s.family,
    metric: s.metric,
    label: s.label,
    title: s.title,
    rankingMetric: s.rankingMetric,
    rankingColumn: s.rankingColumn,
    higherIsBetter: s.higherIsBetter,
    alpha: s.alpha,
    resamples: s.resamples,
    documents: s.documents,
    notes: s.notes,
    rows: s.rows.map(toProtoRow),
    detailsJson: JSON.stringify(s.details),
  };
}
