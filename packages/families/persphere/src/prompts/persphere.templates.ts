import type { PromptTemplate } from '@precis/prompts';

// PerSphere (METHODS.md §3): two-claim perspective summaries with cited documents, HierSphere's
// local and editorial agents, and the judges. Our own wording; the structure follows the method.

const SUMMARY_SYSTEM =
  'You summarize debates faithfully from the documents you are given and follow the requested XML format exactly.';

const XML_FORMAT = `## Output format
Reply with one <summary> element in exactly this XML format:
<summary>
  <claim id="1">
    <statement>the first claim</statement>
    <perspective refs="id, id">one sentence</perspective>
    ...
  </claim>
  <claim id="2">
    <statement>the opposing claim</statement>
    <perspective refs="id">one sentence</perspective>
    ...
  </claim>
</summary>
- There are exactly two <claim> elements, each with one <statement> and one or more <perspective> elements.
- The refs attribute lists document ids separated by commas, without brackets.
- In text, write & as &amp;, < as &lt; and > as &gt;.

## Example of the format
An invented example, for the query "Should city centres be closed to cars?":
<summary>
  <claim id="1">
    <statement>City centres should be closed to cars.</statement>
    <perspective refs="3, 8">Streets without cars have cleaner air for the people who walk and live there.</perspective>
    <perspective refs="5">Pedestrian streets bring local shops more passing customers.</perspective>
  </claim>
  <claim id="2">
    <statement>City centres should stay open to cars.</statement>
    <perspective refs="2">A ban shuts out residents with limited mobility who rely on a car.</perspective>
    <perspective refs="7, 9">Deliveries and repair work get slower and dearer without vehicle access.</perspective>
  </claim>
</summary>`;

const SUMMARY_RULES = `## Task
1. State exactly two claims that answer the query in opposite ways.
2. Under each claim, give the perspectives the documents offer in its favour. Each perspective is one sentence, argues from a single point, and does not overlap with any other perspective.
3. In the refs attribute of each perspective, cite the id of every document that supports it (at least one). Cite only ids of the documents above.
4. Use only what the documents say; add nothing from your own knowledge.`;

// §3.1: the vanilla summary of the k retrieved documents.
export const PERSPHERE_SUMMARY_TEMPLATE: PromptTemplate = {
  id: 'persphere.summary.vanilla',
  version: '1',
  description: 'PerSphere summary: two opposing claims with one-sentence cited perspectives, XML',
  system: SUMMARY_SYSTEM,
  user: `## Query
{{query}}

## Documents
One document per line, each starting with its id in brackets:
{{documents}}

${SUMMARY_RULES}

${XML_FORMAT}`,
};

// §3.4: a HierSphere local agent sees only its share of the retrieved documents.
export const PERSPHERE_LOCAL_TEMPLATE: PromptTemplate = {
  id: 'persphere.hiersphere.local',
  version: '1',
  description: 'HierSphere local agent: XML summary of its share of the retrieved documents',
  system: SUMMARY_SYSTEM,
  user: `You are one of several agents, each given a part of the documents retrieved for a query. An editor will later merge the agents' summaries, so summarize your documents, and only them.

## Query
{{query}}

## Your documents
One document per line, each starting with its id in brackets:
{{documents}}

${SUMMARY_RULES}

${XML_FORMAT}`,
};

// §3.4: the editorial agent merges the local summaries into one.
export const PERSPHERE_EDITOR_TEMPLATE: PromptTemplate = {
  id: 'persphere.hiersphere.editor',
  version: '1',
  description: 'HierSphere editorial agent: merge local XML summaries into one two-claim summary',
  system: SUMMARY_SYSTEM,
  user: `You are the editor. Several agents each summarized a part of the documents retrieved for a query; merge their summaries into one.

## Query
{{query}}

## Summaries from the agents
{{summaries}}

## Task
1. Give exactly two claims that answer the query in opposite ways, bringing together the claims of the agents.
2. When perspectives from different agents make the same point, merge them into one perspective whose refs are all the ids the merged perspectives cite.
3. Write each perspective as one concise sentence that argues from a single aspect, for example:
   <perspective refs="4, 11">Working from home saves employees hours of commuting every week.</perspective>
4. Keep every distinct perspective, under the claim it supports.
5. Use only what the agents' summaries say and cite only ids they cite; add nothing from your own knowledge.

${XML_FORMAT}`,
};

const JUDGE_SYSTEM = 'You are a careful, impartial judge and answer in exactly the requested format.';

// §3.3: the response compared with the golden summary, rated 1-10.
export const PERSPHERE_RATING_TEMPLATE: PromptTemplate = {
  id: 'persphere.judge.rating',
  version: '1',
  description: 'PerSphere summary judge: compare with the golden summary, rate 1-10 as Rating: [[n]]',
  system: JUDGE_SYSTEM,
  user: `Query: {{query}}

Golden summary:
{{golden}}

Summary to evaluate:
{{response}}

Judge the summary to evaluate against the golden summary on these points:
1. Claims: does it state the two opposing claims of the golden summary?
2. References: does each perspective cite documents that support it, judging by the documents the golden summary cites for the same point?
3. Distinctness: are its perspectives different from one another and free of irrelevant content?
4. Coverage: how many of the golden perspectives does it contain?
5. Faithfulness: does it avoid claims, perspectives or references that are made up?
The order of the perspectives and differences in XML formatting do not matter.

Explain your judgement briefly, then give a rating from 1 (worst) to 10 (best) on the last line, in exactly this form:
Rating: [[n]]`,
};

// §3.2 Rp@k: the perspective a model draws from one retrieved evidence document.
export const PERSPHERE_EXTRACT_TEMPLATE: PromptTemplate = {
  id: 'persphere.judge.extract',
  version: '1',
  description:
    'PerSphere perspective extraction: one-sentence perspective supporting a claim, from one document',
  system: JUDGE_SYSTEM,
  user: `Claim: {{claim}}

Document:
{{document}}

Summarize the document into a one-sentence perspective that supports the claim above, using only what the document says. Reply with one line in exactly this form:
Perspective: <one sentence>`,
};

// §3.2 Rp@k: does the extracted perspective entail the gold one.
export const PERSPHERE_ENTAIL_TEMPLATE: PromptTemplate = {
  id: 'persphere.judge.entail',
  version: '1',
  description: 'PerSphere entailment: does an extracted perspective entail the gold perspective (yes/no)',
  system: JUDGE_SYSTEM,
  user: `Premise: {{premise}}
Hypothesis: {{hypothesis}}

Does the premise entail the hypothesis, that is, if the premise is true, does the point the hypothesis makes follow from it? The same argument in other words counts as entailed. Explain in at most two sentences, then finish with a last line that is exactly "Answer: yes" or "Answer: no".`,
};

// §3.5: stance detection.
export const PERSPHERE_STANCE_TEMPLATE: PromptTemplate = {
  id: 'persphere.judge.stance',
  version: '1',
  description: 'PerSphere stance detection: which of two claims a perspective supports (1 or 2)',
  system: JUDGE_SYSTEM,
  user: `Claim 1: {{claim1}}
Claim 2: {{claim2}}

Perspective: {{perspective}}

Which of the two claims does the perspective support? Explain in at most two sentences, then finish with a last line that is exactly "Answer: 1" or "Answer: 2".`,
};

// §3.5: reference determination.
export const PERSPHERE_REFERENCE_TEMPLATE: PromptTemplate = {
  id: 'persphere.judge.reference',
  version: '1',
  description:
    'PerSphere reference determination: is a document supporting evidence for a perspective (yes/no)',
  system: JUDGE_SYSTEM,
  user: `Perspective: {{perspective}}

Document:
{{document}}

Is the document a reference for the perspective, that is, does it contain evidence or arguments that support the perspective? A document on the same topic that does not back the perspective is not a reference. Explain in at most two sentences, then finish with a last line that is exactly "Answer: yes" or "Answer: no".`,
};

export const PERSPHERE_TEMPLATES: readonly PromptTemplate[] = [
  PERSPHERE_SUMMARY_TEMPLATE,
  PERSPHERE_LOCAL_TEMPLATE,
  PERSPHERE_EDITOR_TEMPLATE,
  PERSPHERE_RATING_TEMPLATE,
  PERSPHERE_EXTRACT_TEMPLATE,
  PERSPHERE_ENTAIL_TEMPLATE,
  PERSPHERE_STANCE_TEMPLATE,
  PERSPHERE_REFERENCE_TEMPLATE,
];

// The {{documents}} block: one "[<id>] <text>" line per document, line breaks in the text folded
// so each document stays on its own line.
export function formatPersphereDocuments(docs: readonly { id: string | number; text: string }[]): string {
  return docs.map((d) => `[${d.id}] ${d.text.replace(/\s+/g, ' ').trim()}`).join('\n');
}
