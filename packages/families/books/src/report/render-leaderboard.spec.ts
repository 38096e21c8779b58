import { describe, expect, it } from '@jest/globals';
import {
  describeWork,
  type ReportBlock,
  type RowWork,
  renderCsv,
  renderHtml,
  renderMarkdown,
} from '@precis/engine';
import { pageDataOf } from '@precis/web';
import type { LeaderboardRow } from '../booookscore/leaderboard-row.js';
import { booookScoreBlocks, type RunReport, rankRows } from './render-leaderboard.js';

const usage = { calls: 0, tokensIn: 0, tokensOut: 0, costUsd: 0 };

function row(system: string, score: number | null, work: RowWork): LeaderboardRow {
  return {
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

describe('rankRows', () => {
  it('ranks complete rows by score, ties by system name, and leaves incomplete rows unranked', () => {
    const rows = [
      row('zeta', 0.8, complete),
      row('beta', null, partial),
      row('alpha', 0.8, complete),
      row('gamma', 0.9, complete),
      // A stored partial score is never ranked.
      row('aardvark', 0.95, partial),
    ];
    expect(rankRows(rows).map((r) => [r.rank, r.system])).toEqual([
      [1, 'gamma'],
      [2, 'alpha'],
      [3, 'zeta'],
      [null, 'aardvark'],
      [null, 'beta'],
    ]);
    expect(rankRows([...rows].reverse())).toEqual(rankRows(rows));
  });
});

describe('booookScoreBlocks', () => {
  const report: RunReport = {
    run: { id: 'r1', name: 'n', status: 'completed', createdAt: 't0', finishedAt: 't1', error: null },
    leaderboard: [row('beta', null, partial), row('alpha', 0.8, complete)],
    bootstrapResamples: 1000,
  };

  it('csv: numbers unformatted, the CI and the failures in columns of their own', () => {
    const [header, first, second, end] = renderCsv(booookScoreBlocks(report)).split('\n');
    expect(header).toBe(
      'table,rank,system,strategy,summarizer,BooookScore,95% CI low,95% CI high,bootstrap std,summaries,failed summaries,failed judgments,length (tokens),novel 3-grams (%),repeated 3-grams (%),summarizer tokens,summarizer cached tokens,summarizer reasoning tokens,summarizer cost (USD),judge tokens,judge cached tokens,judge reasoning tokens,judge cost (USD),judge,status',
    );
    expect(first).toBe(
      'booookscore,1,alpha,opinion,engine:textrank,80,78,82,1,4,0,0,40,5,0,0,0,0,0,0,0,0,0,model:j,complete',
    );
    expect(second).toBe(
      'booookscore,,beta,opinion,engine:textrank,,,,,3,1,2,40,5,0,0,0,0,0,0,0,0,0,model:j,"incomplete: 1 of 4 summaries failed, 2 of 10 judgments failed"',
    );
    expect(end).toBe('');
  });

  it('md: the table shows display strings', () => {
    const md = renderMarkdown('Run n', booookScoreBlocks(report));
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
    const blocks = booookScoreBlocks({ ...report, leaderboard: [reasoning] });
    expect(renderMarkdown('Run n', blocks)).toContain(
      '| 10200 (4096 cached, 800 reasoning) | $0.0123 | 390 (64 reasoning) | $0.0010 | model:j | complete |',
    );
    expect(renderCsv(blocks).split('\n')[1]).toBe(
      'booookscore,1,alpha,opinion,engine:textrank,80,78,82,1,4,0,0,40,5,0,10200,4096,800,0.0123,390,0,64,0.001,model:j,complete',
    );
  });

  it('md: the judge note and error-type lines say what failed', () => {
    const md = renderMarkdown('Run n', booookScoreBlocks(report));
    expect(md).toContain('Judge: model:j (2 of 20 judgments failed).');
    expect(md).toContain('- alpha: entity omission 10.0% (per sentence, 10 sentences)\n');
    expect(md).toContain(
      '- beta: entity omission 10.0% in the 10 judged sentences (incomplete: 1 of 4 summaries failed, 2 of 10 judgments failed)\n',
    );
    // The HTML report carries the same blocks for the page to draw: the bar says why there is none.
    const page = pageDataOf(renderHtml('Run n', booookScoreBlocks(report))) as { blocks: ReportBlock[] };
    expect(page.blocks[0]!.chart!.bars[1]).toEqual({
      label: 'beta',
      share: null,
      display: 'incomplete: 1 of 4 summaries failed, 2 of 10 judgments failed',
    });
  });
});
