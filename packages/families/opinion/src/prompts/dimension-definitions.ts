import type { OpinionDimensionId } from '@precis/prompts';

// Precis's own definitions of the seven opinion-summary dimensions (METHODS.md §4.1), as the
// judge prompts show them.
export interface OpinionDimensionDefinition {
  id: OpinionDimensionId;
  name: string;
  definition: string;
}

export const OPINION_DIMENSIONS_DEFINED: Record<OpinionDimensionId, OpinionDimensionDefinition> = {
  fluency: {
    id: 'fluency',
    name: 'Fluency',
    definition:
      'The summary reads smoothly: grammar, spelling and punctuation are correct, the words are well chosen, and every sentence is easy to read and understand.',
  },
  coherence: {
    id: 'coherence',
    name: 'Coherence',
    definition:
      'The summary is organized as a connected whole: sentences follow one another logically and build a clear picture of the product, instead of listing unrelated facts one after another.',
  },
  relevance: {
    id: 'relevance',
    name: 'Relevance',
    definition:
      'The summary keeps only the important opinions that most reviewers share, leaves out minor or isolated remarks, and does not repeat itself.',
  },
  faithfulness: {
    id: 'faithfulness',
    name: 'Faithfulness',
    definition:
      'Every statement in the summary is backed by the reviews: nothing is invented, and no opinion of a few reviewers is presented as if everyone held it.',
  },
  aspect_coverage: {
    id: 'aspect_coverage',
    name: 'Aspect Coverage',
    definition:
      'The summary mentions all of the product aspects (for example fit, price, durability) that the reviews discuss the most.',
  },
  sentiment_consistency: {
    id: 'sentiment_consistency',
    name: 'Sentiment Consistency',
    definition:
      'For each aspect the summary mentions, the sentiment it expresses (positive, negative, mixed) agrees with the overall sentiment of the reviews about that aspect.',
  },
  specificity: {
    id: 'specificity',
    name: 'Specificity',
    definition:
      'The summary states concrete, detailed opinions (what exactly is good or bad and why) rather than vague, generic praise or criticism that could describe any product.',
  },
};

// Reviews as numbered blocks, the same layout in every opinion prompt.
export function formatReviews(reviews: readonly string[]): string {
  return reviews.map((r, i) => `Review ${i + 1}: ${r.trim()}`).join('\n\n');
}
