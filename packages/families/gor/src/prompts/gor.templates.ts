import type { PromptTemplate } from '@precis/prompts';

// Graph of Records (METHODS.md §5): query simulation, the RAG response that becomes a record,
// the final summary from retrieved records, and the pairwise judge. Our own wording.

// §5.2: one summary-style question that the chunk answers completely (temperature 0.5).
export const GOR_SIMULATE_TEMPLATE: PromptTemplate = {
  id: 'gor.simulate-query',
  version: '1',
  description: 'GoR query simulation: one summary-style question a chunk answers completely',
  system: 'You write questions about documents and answer in exactly the requested format.',
  user: `Part of a long document:
{{chunk}}

Write one question that asks for a summary of something in this part, and that this part answers completely on its own. Reply with one line in exactly this form:
Question: <the question>`,
};

// §5.3: the RAG response to a simulated query (it becomes a node of the graph).
export const GOR_RESPOND_TEMPLATE: PromptTemplate = {
  id: 'gor.respond',
  version: '1',
  description: 'GoR record: answer a query from retrieved supporting materials, briefly but completely',
  system: 'You answer questions from the supporting materials you are given.',
  user: `Supporting materials:
{{materials}}

Question: {{query}}

Use the supporting materials to answer the question briefly but completely.`,
};

// §5.7: the global summary from the top-K nodes.
export const GOR_SUMMARY_TEMPLATE: PromptTemplate = {
  id: 'gor.summarize',
  version: '1',
  description: 'GoR global summary from the retrieved chunks and records',
  system: 'You summarize long documents faithfully.',
  user: `Supporting materials, taken from a long document and from earlier answers about it:
{{materials}}

{{query}}
Use the supporting materials; write the summary as one or a few paragraphs.`,
};

// §5.8: the pairwise judge; both presentation orders are asked by the caller.
export const GOR_PAIRWISE_TEMPLATE: PromptTemplate = {
  id: 'gor.judge.pairwise',
  version: '1',
  description: 'GoR pairwise judge: comprehensiveness, diversity, empowerment and overall winner, JSON',
  system: 'You are a careful, impartial judge and answer in exactly the requested format.',
  user: `Question: {{query}}

Answer 1:
{{answer1}}

Answer 2:
{{answer2}}

Compare the two answers on:
- comprehensiveness: how much detail it gives to cover every aspect of the question;
- diversity: how varied and rich its perspectives and insights are;
- empowerment: how well it helps the reader understand the topic and make informed judgements;
- overall: which answer is better on the three criteria together.
Reply with one JSON object and nothing else, each value 1 or 2 (the better answer's number) with a short reason:
{"comprehensiveness": {"winner": 1, "reason": "..."}, "diversity": {"winner": 2, "reason": "..."}, "empowerment": {"winner": 1, "reason": "..."}, "overall": {"winner": 1, "reason": "..."}}`,
};

export const GOR_TEMPLATES: readonly PromptTemplate[] = [
  GOR_SIMULATE_TEMPLATE,
  GOR_RESPOND_TEMPLATE,
  GOR_SUMMARY_TEMPLATE,
  GOR_PAIRWISE_TEMPLATE,
];
