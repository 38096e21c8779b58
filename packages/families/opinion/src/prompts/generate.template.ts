import type { PromptTemplate } from '@precis/prompts';

// Opinion summary generation (METHODS.md §4.2): one paragraph, no bullet points.
export const OPINION_SUMMARY_TEMPLATE: PromptTemplate = {
  id: 'opinion.summarize',
  version: '1',
  description: 'Opinion summary of a product from its reviews (one paragraph, no bullet points)',
  system: 'You write short, balanced summaries of customer opinions. You only report what the reviewers say.',
  user: `Below are customer reviews of one product.

{{reviews}}

Write a summary of what these reviewers think of the product, as ONE paragraph of plain prose.
- Give the opinions most reviewers share first, and mention notable disagreements.
- Be concrete about the aspects discussed (for example quality, fit, price, ease of use).
- Do not use bullet points, numbered lists, headings or quotes; do not address the reader.
- Do not add anything the reviews do not say.

Reply with the paragraph only.`,
};
