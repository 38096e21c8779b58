import type { PromptTemplate } from '@precis/prompts';

const DEFINITIONS = `You are checking a summary of a book for places where a reader would get confused.

Confusion types:
1. entity omission: a person, place or object is mentioned, but details the reader needs to understand its role are missing (who is this? what is this?).
2. event omission: an event is referred to, but the summary never tells what happened in it.
3. causal omission: something happens or someone acts, but the reason or motivation needed to make sense of it is missing.
4. salience: the sentence spends words on a trivial detail that does not matter for the story.
5. discontinuity: a sudden jump in time, perspective or setting, a missing transition, or a sentence that is out of place.
6. duplication: the sentence repeats information already given in the summary.
7. inconsistency: the sentence contradicts another part of the summary.
8. language: grammar errors or wording so unclear that the meaning is hard to recover.

Count something as a confusion ONLY if both conditions hold:
(a) if it stayed unresolved, a reader would struggle substantially to follow the main story, or the summary would seem incoherent; minor curiosities do not count;
(b) it cannot be resolved from the summary itself (information given elsewhere in the summary resolves it).

Worked example A.
Summary: "Ilse runs a bakery in a mountain village. When the pass closes for winter, flour runs short. The stranger offers her a sack of grain in exchange for a room. Ilse agrees, and the village eats through the storm. In spring the stranger leaves a letter thanking her."
Sentence 3 "The stranger offers her a sack of grain in exchange for a room." -> confusing: who is the stranger? No earlier sentence introduces them. Types: entity omission.
Sentence 4 "Ilse agrees, and the village eats through the storm." -> no confusion.

Worked example B.
Summary: "Captain Reyes sails the Morrow to the northern islands to deliver medicine. The crew mutinies after the second week. Reyes is later seen back in port, promoted to admiral. The medicine arrives in time."
Sentence 2 "The crew mutinies after the second week." -> confusing: why does the crew mutiny? Types: causal omission.
Sentence 3 "Reyes is later seen back in port, promoted to admiral." -> confusing: what happened to the mutiny, and how did Reyes regain the ship? Why is a captain whose crew mutinied promoted? Types: event omission, discontinuity.
Sentence 1 "Captain Reyes sails the Morrow to the northern islands to deliver medicine." -> no confusion.`;

export const ANNOTATE_SENTENCE_TEMPLATE: PromptTemplate = {
  id: 'booookscore.annotate-sentence',
  version: '1',
  description: 'BooookScore coherence annotation of one summary sentence (few-shot, eight types)',
  system: DEFINITIONS,
  user: `Full summary:
"""
{{summary}}
"""

Target sentence:
"""
{{sentence}}
"""

Does the target sentence cause a confusion, as defined above? Reply with ONE JSON object and nothing else:
{"confusing": false}
or
{"confusing": true, "questions": ["<the clarifying question(s) a reader would ask>"], "types": ["<one or more of the eight type names>"]}`,
};

export const ANNOTATE_BATCH_TEMPLATE: PromptTemplate = {
  id: 'booookscore.annotate-batch',
  version: '1',
  description:
    'BooookScore coherence annotation of a batch of numbered summary sentences (few-shot, eight types)',
  system: DEFINITIONS,
  user: `Full summary:
"""
{{summary}}
"""

Target sentences (numbered as in the summary):
{{numberedSentences}}

For EACH target sentence decide whether it causes a confusion, as defined above. Reply with ONE JSON object keyed by sentence number, covering every target sentence and nothing else, for example:
{"{{firstNumber}}": {"confusing": false}, "<n>": {"confusing": true, "questions": ["..."], "types": ["causal omission"]}}`,
};
