import type { BenchmarkFamily } from '@precis/engine/family';
import { PluginError } from '@precis/plugins';
import { booookScoreMetric } from './booookscore/booookscore-metric.js';
import { booookScoreBatchTask } from './booookscore/booookscore-task.js';
import { scoreBooookScore } from './booookscore/score-booookscore.js';
import { ANNOTATE_BATCH_TEMPLATE, ANNOTATE_SENTENCE_TEMPLATE } from './prompts/annotate.templates.js';
import { booookScoreReport } from './report/booookscore-report.js';
import { StrategyError } from './strategies/steps.js';
import { DEFAULT_TEMPLATES } from './strategies/templates.js';
import { BOOK_STRATEGIES } from './summarize/books-strategies.js';
import { summaryStepTask } from './summarize/summary-step-task.js';

// Books (METHODS.md §1-2): long documents summarized by hierarchical merging, incremental
// updating or in full context, judged by BooookScore.
export const booksFamily: BenchmarkFamily = {
  name: 'books',
  strategies: BOOK_STRATEGIES,
  metrics: [booookScoreMetric],
  taskKinds: [summaryStepTask, booookScoreBatchTask],
  templates: [...Object.values(DEFAULT_TEMPLATES), ANNOTATE_BATCH_TEMPLATE, ANNOTATE_SENTENCE_TEMPLATE],
  // A plugin's error is final: the caller has already retried what another attempt could fix.
  isPermanent: (err) => err instanceof StrategyError || err instanceof PluginError,
  score: scoreBooookScore,
  report: booookScoreReport,
};
