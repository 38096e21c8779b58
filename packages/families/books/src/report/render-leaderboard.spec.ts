import { describe, expect, it } from '@jest/globals';
import {
  blocksPageData,
  describeWork,
  type RowWork,
  rankBoard,
  renderCsv,
  renderMarkdown,
  sectionJson,
} from '@precis/engine';
import { type BooksRow, booookScoreBlocks, booookScoreBoards, type RunReport } from './render-leaderboard.js';

const usage = { calls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 };

function row(system: string, score: number | null, work: RowWork, metricKey = 'booookscore.0'): BooksRow {
  return {
    metricKey,
    system,
    strategy: 'opinion',
    summarizer: 'engine:textrank',
    metric: 'BooookScore',
    judge: 'model:j',
    judgeTemplate: null,
    score,
    bootstrapStd: score === null ? null : 0.01,
    ci95: score === null ? null : [score - 0.02, score + 0.02],
    summaries: work.summaries.expected - work.summaries.failed,
    work,
    status: describeWork(work),
    sentences: 10,
    errorTypes: { 'entity omission': 0.1 },
    lengthTokens: 40,
    novelTrigramsPct: 5,
    repeatedTrigramsPct: 0,
    summarizerUsage: usage,
    judgeUsage: usage,
  };
}

const complete: RowWork = { summaries: { expected: 4, failed: 0 }, judgments: { expected: 10, failed: 0 } };
const partial: RowWork = { summaries: { expected: 4, failed: 1 }, judgments: { expected: 10, failed: 2 } };

// Each summary scored the same per document: no document separates two systems.
const perDocument = (rows: readonly BooksRow[], documents: number) =>
  new Map([
    [
      'booookscore.0',
      new Map(
        rows
          .filter((r) => r.score !== null)
          .map((r) => [r.system, new Map(Array.from({ length: documents }, (_, d) => [`d${d}`, r.score!]))]),
      ),
    ],
  ]);
const opts = { alpha: 0.05, resamples: 200, seed: 1 };
const ranked = (report: RunReport, documents = 0) =>
  booookScoreBoards(report).map((b) => rankBoard(b, perDocument(report.leaderboard, documents), opts));
const blocksOf = (report: RunReport, documents = 0) => booookScoreBlocks(report, ranked(report, documents));

describe('booookScoreBoards', () => {
  const header = { id: 'r1', name: 'n', status: 'completed', createdAt: 't0', finishedAt: 't1', error: null };

  it('orders complete rows by score, ties share a rank, incomplete rows come last unranked', () => {
    const rows = [
      row('zeta', 0.8, complete),
      row('beta', null, partial),
      row('alpha', 0.8, complete),
      row('gamma', 0.9, complete),
      // A stored partial score is never ranked.
      row('aardvark', 0.95, partial),
    ];
    const [board] = ranked({ run: header, leaderboard: rows, bootstrapResamples: 1000 }, 6);
    expect(board!.rows.map((r) => [r.rankLabel, r.system])).toEqual([
      ['1', 'gamma'],
      ['=2', 'alpha'],
      ['=2', 'zeta'],
      ['–', 'aardvark'],
      ['–', 'beta'],
    ]);
  });

  it('gives each BooookScore metric its own section, titled for people, with the id as its label', () => {
    const rows = [row('a', 0.8, complete), row('a', 0.7, complete, 'booookscore.1')];
    const sections = ranked({ run: header, leaderboard: rows, bootstrapResamples: 1000 }).map(sectionJson);
    expect(sections.map((s) => [s.key, s.label, s.title, s.rankingMetric, s.rankingColumn])).toEqual([
      [
        'booookscore.0',
        'booookscore.0',
        'BooookScore (coherence), judge model:j',
        'booookscore.0',
        'BooookScore',
      ],
      [
        'booookscore.1',
        'booookscore.1',
        'BooookScore (coherence), judge model:j',
        'booookscore.1',
        'BooookScore',
      ],
    ]);
    // One scale: the section's score and CI are the table's percent.
    expect(sections[0]!.rows[0]).toMatchObject({
      system: 'a',
      rank: 1,
      rankLabel: '1',
      score: 80,
      ciLow: 78,
      ciHigh: 82,
      bootstrapStd: 1,
      errorTypesPct: { 'entity omission': 10 },
      status: 'complete',
    });
  });
});

describe('booookScoreBlocks', () => {
  const report: RunReport = {
    run: { id: 'r1', name: 'n', status: 'completed', createdAt: 't0', finishedAt: 't1', error: null },
    leaderboard: [row('beta', null, partial), row('alpha', 0.8, complete)],
    bootstrapResamples: 1000,
  };

  it('csv: numbers unformatted, the CI and the failures in columns of their own', () => {
    const [header, first, second, end] = renderCsv(blocksOf(report)).split('\n');
    expect(header).toBe(
      'table,rank,rank shown,system,strategy,summarizer,BooookScore,95% CI low,95% CI high,bootstrap std,summaries,failed summaries,failed judgments,length (tokens),novel 3-grams (%),repeated 3-grams (%),summarizer tokens,summarizer cached tokens,summarizer reasoning tokens,summarizer cost (USD),judge tokens,judge cached tokens,judge reasoning tokens,judge cost (USD),judge,status',
    );
    expect(first).toBe(
      'booookscore.0,1,1,alpha,opinion,engine:textrank,80,78,82,1,4,0,0,40,5,0,0,0,0,0,0,0,0,0,model:j,complete',
    );
    expect(second).toBe(
      'booookscore.0,,–,beta,opinion,engine:textrank,,,,,3,1,2,40,5,0,0,0,0,0,0,0,0,0,model:j,"incomplete: 1 of 4 summaries failed, 2 of 10 judgments failed"',
    );
    expect(end).toBe('');
  });

  it('md: the table shows display strings', () => {
    const md = renderMarkdown('Run n', blocksOf(report));
    expect(md).toContain(
      '| 1 | alpha | opinion | engine:textrank | 80.0 | 78.0–82.0 | 1.00 | 4 | 0 | 40 | 5.0% | 0.0% | 0 | $0.0000 | 0 | $0.0000 | model:j | complete |',
    );
    expect(md).toContain(
      '| – | beta | opinion | engine:textrank | n/a | n/a | n/a | 3 | 1 summary, 2 judgments |',
    );
  });

  it("shows a reasoning model's cached and reasoning tokens beside its tokens; CSV in columns", () => {
    const reasoning = {
      ...row('alpha', 0.8, complete),
      summarizerUsage: {
        calls: 4,
        tokensIn: 9000,
        tokensOut: 1200,
        tokensCached: 4096,
        tokensReasoning: 800,
        costUsd: 0.0123,
      },
      judgeUsage: { calls: 2, tokensIn: 300, tokensOut: 90, tokensReasoning: 64, costUsd: 0.001 },
    };
    const blocks = blocksOf({ ...report, leaderboard: [reasoning] });
    expect(renderMarkdown('Run n', blocks)).toContain(
      '| 10200 (4096 cached, 800 reasoning) | $0.0123 | 390 (64 reasoning) | $0.0010 | model:j | complete |',
    );
    expect(renderCsv(blocks).split('\n')[1]).toBe(
      'booookscore.0,1,1,alpha,opinion,engine:textrank,80,78,82,1,4,0,0,40,5,0,10200,4096,800,0.0123,390,0,64,0.001,model:j,complete',
    );
  });

  it('md: the judge note and error-type lines say what failed', () => {
    const md = renderMarkdown('Run n', blocksOf(report));
    expect(md).toContain('Judge: model:j (2 of 20 judgments failed).');
    expect(md).toContain('- alpha: entity omission 10.0% (per sentence, 10 sentences)\n');
    expect(md).toContain(
      '- beta: entity omission 10.0% in the 10 judged sentences (incomplete: 1 of 4 summaries failed, 2 of 10 judgments failed)\n',
    );
    // The HTML report's page data carries the same blocks to draw: the bar says why there is none.
    const page = blocksPageData('Run n', blocksOf(report));
    expect(page.blocks[0]!.chart!.bars[1]).toEqual({
      label: 'beta',
      share: null,
      display: 'incomplete: 1 of 4 summaries failed, 2 of 10 judgments failed',
    });
  });
});
