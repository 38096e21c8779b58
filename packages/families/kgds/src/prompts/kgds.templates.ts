import type { PromptTemplate } from '@precis/prompts';

// KGDS (METHODS.md §2): summaries of a discussion grounded in a news article, and the judges
// that verify them. Our own wording; the structure follows the method's description.

const SUMMARY_SYSTEM =
  'You summarize discussions about news articles precisely and follow the requested format.';

const INPUT = `## Input content
News article, one paragraph per line, each starting with its paragraph index in brackets:
{{paragraphs}}

Discussion, one utterance per line, each starting with its speaker:
{{utterances}}`;

const OPINION_DEFINITION = `- Opinion summary: a summary stating the opinion of each participant in the discussion. Implicit references in what they say (pronouns such as "he", or phrases such as "his missed free throw") must be resolved with the help of the article, so each opinion can be understood without reading the discussion.`;

const RULES = `## Task description
1. Read the article and the discussion.
2. Decide which background knowledge from the article the discussion relies on.
3. Write the background summary as defined above.
4. Write the opinion summary: name every participant, state what each of them thinks, and replace every implicit reference with what it refers to.`;

// Structured prompt, extractive background (EBS-AOS).
export const KGDS_EBS_AOS_TEMPLATE: PromptTemplate = {
  id: 'kgds.summary.ebs-aos',
  version: '1',
  description: 'KGDS structured prompt: extractive background (paragraph indices) + opinion summary, JSON',
  system: SUMMARY_SYSTEM,
  user: `${INPUT}

## Input definitions
- News article: the background the participants talk about; paragraph indices may have gaps.
- Discussion: what the participants said, in order.

## Output definitions
- Extractive background summary: the indices of the article paragraphs the discussion needs as background. Choose every paragraph the participants rely on, and no other.
${OPINION_DEFINITION}

${RULES}

## Return format
Reply with one JSON object and nothing else:
{"background_paragraphs": [<paragraph indices as integers>], "opinion_summary": "<the opinion summary>"}`,
};

// Structured prompt, abstractive background (ABS-AOS).
export const KGDS_ABS_AOS_TEMPLATE: PromptTemplate = {
  id: 'kgds.summary.abs-aos',
  version: '1',
  description: 'KGDS structured prompt: abstractive background + opinion summary, JSON',
  system: SUMMARY_SYSTEM,
  user: `${INPUT}

## Input definitions
- News article: the background the participants talk about.
- Discussion: what the participants said, in order.

## Output definitions
- Abstractive background summary: a short text, in your own words, giving the facts from the article that the discussion needs as background, and no other facts.
${OPINION_DEFINITION}

${RULES}

## Return format
Reply with one JSON object and nothing else:
{"background_summary": "<the background summary>", "opinion_summary": "<the opinion summary>"}`,
};

// Self-reflection: the second turn after the structured prompt's answer.
export const KGDS_REFLECT_TEMPLATE: PromptTemplate = {
  id: 'kgds.summary.reflect',
  version: '1',
  description: 'KGDS self-reflection turn: check the answer against the definitions, return it revised',
  user: `Reflect on your answer step by step. Check the background summary against its definition: does it hold everything the discussion needs, and nothing it does not? Check the opinion summary: is every participant there, is every opinion stated faithfully, and is every implicit reference resolved correctly? Then give your revised answer as one JSON object in exactly the same return format as before, after your reflection.`,
};

// Fact verification: one call per source paragraph, numbered facts, numbered yes/no answers.
export const KGDS_FACTS_TEMPLATE: PromptTemplate = {
  id: 'kgds.verify.facts',
  version: '1',
  description:
    'KGDS fact verification: can each numbered fact be inferred from the background summary (yes/no)',
  system: 'You verify facts against a text strictly and answer in the requested format.',
  user: `Background summary:
{{summary}}

Facts, numbered 1 to {{count}}:
{{facts}}

For each fact, decide whether it can be inferred from the background summary alone. Answer with exactly {{count}} lines, one per fact in order, each "<number>. yes" or "<number>. no", and nothing else.`,
};

// Opinion verification: can each clear atomic opinion be inferred from the opinion summary.
export const KGDS_OPINIONS_TEMPLATE: PromptTemplate = {
  id: 'kgds.verify.opinions',
  version: '1',
  description:
    'KGDS opinion verification: can each numbered opinion be inferred from the opinion summary (yes/no)',
  system: 'You verify opinions against a summary strictly and answer in the requested format.',
  user: `Opinion summary:
{{summary}}

Opinions, numbered 1 to {{count}} (words in **bold** are the things the opinion refers to):
{{opinions}}

For each opinion, decide whether the opinion summary states it: the same person, the same view with the same sentiment, about the same thing. Answer with exactly {{count}} lines, one per opinion in order, each "<number>. yes" or "<number>. no", and nothing else.`,
};

// Error detection: the type of each opinion the summary did not convey.
export const KGDS_ERRORS_TEMPLATE: PromptTemplate = {
  id: 'kgds.verify.errors',
  version: '1',
  description: 'KGDS error detection: classify each opinion the summary misses as OFI, OSD, IRU, IRIC or OM',
  system: 'You diagnose errors in opinion summaries and answer in the requested format.',
  user: `News article:
{{paragraphs}}

Discussion:
{{utterances}}

Opinion summary:
{{summary}}

The opinion summary does not convey these opinions, numbered 1 to {{count}}:
{{opinions}}

For each, name the one error that best explains why:
- OFI (opinion fact inconsistency): the summary states the opinion with facts that contradict the article or the discussion.
- OSD (opinion sentiment distortion): the summary changes the opinion's sentiment or strength.
- IRU (implicit reference unclarified): the summary keeps a pronoun or vague phrase, so what the opinion is about is unclear.
- IRIC (implicit reference incorrectly clarified): the summary resolves the reference to the wrong thing.
- OM (opinion misattribution): the summary gives the opinion to the wrong participant, or leaves it out.
Answer with exactly {{count}} lines, one per opinion in order, each "<number>. <type>", and nothing else.`,
};

// Feedback judgment: which of two extractive backgrounds better fits the definition.
export const KGDS_FEEDBACK_TEMPLATE: PromptTemplate = {
  id: 'kgds.verify.feedback',
  version: '1',
  description:
    'KGDS feedback judgment: which of two extractive background summaries better fits the definition',
  system: 'You compare two answers carefully and answer in the requested format.',
  user: `News article, one paragraph per line, each starting with its paragraph index:
{{paragraphs}}

Discussion:
{{utterances}}

An extractive background summary is the set of article paragraphs the discussion needs as background: every paragraph the participants rely on, and no other.

Answer A: paragraphs {{a}}
Answer B: paragraphs {{b}}

Which answer better fits that definition? Reply with one JSON object and nothing else: {"better": "A"} or {"better": "B"}.`,
};

export const KGDS_TEMPLATES: readonly PromptTemplate[] = [
  KGDS_EBS_AOS_TEMPLATE,
  KGDS_ABS_AOS_TEMPLATE,
  KGDS_REFLECT_TEMPLATE,
  KGDS_FACTS_TEMPLATE,
  KGDS_OPINIONS_TEMPLATE,
  KGDS_ERRORS_TEMPLATE,
  KGDS_FEEDBACK_TEMPLATE,
];
