import type { PromptTemplate } from '@precis/prompts';

// Prompts for book-length summarization (METHODS.md §1.2-1.4). Wording is Precis's own.
const SYSTEM = 'You are an expert editor who writes clear, faithful plot summaries of long stories.';

export const CHUNK_SUMMARY_TEMPLATE: PromptTemplate = {
  id: 'book.chunk-summary',
  version: '1',
  description: 'Hierarchical merging, level 0: summarize one part of a story',
  system: SYSTEM,
  user: `Below is one part of a longer story. Summarize this part in at most {{budget}} words. Cover the key events, the characters involved and their motivations, and the setting. Write plain prose; do not mention that this is a part or a summary.

Part of the story:
"""
{{text}}
"""

Summary:`,
};

export const MERGE_TEMPLATE: PromptTemplate = {
  id: 'book.merge',
  version: '1',
  description: 'Hierarchical merging, first group of a level: merge consecutive summaries',
  system: SYSTEM,
  user: `Below are summaries of consecutive parts of a story, in order. Merge them into one coherent summary of at most {{budget}} words that reads as if written in one go: keep the chronology, the key events, the characters and their motivations; remove repetition.

Summaries:
"""
{{summaries}}
"""

Merged summary:`,
};

export const MERGE_WITH_CONTEXT_TEMPLATE: PromptTemplate = {
  id: 'book.merge-with-context',
  version: '1',
  description:
    'Hierarchical merging, later groups of a level: merge with the preceding merged summary as context',
  system: SYSTEM,
  user: `Here is a summary of what happened earlier in the story, for context only:
"""
{{context}}
"""

Below are summaries of the next consecutive parts of the story, in order. Merge them into one coherent summary of at most {{budget}} words that continues naturally from the context: keep the chronology, the key events, the characters and their motivations; do not repeat the context.

Summaries:
"""
{{summaries}}
"""

Merged summary:`,
};

export const INITIAL_SUMMARY_TEMPLATE: PromptTemplate = {
  id: 'book.incremental-initial',
  version: '1',
  description: 'Incremental updating: summary of the first part',
  system: SYSTEM,
  user: `Below is the beginning of a story. Write a summary of it in at most {{budget}} words, covering the key events, settings, characters and their motivations. Write plain prose.

Beginning of the story:
"""
{{text}}
"""

Summary:`,
};

export const UPDATE_SUMMARY_TEMPLATE: PromptTemplate = {
  id: 'book.incremental-update',
  version: '1',
  description: 'Incremental updating: integrate the next part into the running summary',
  system: SYSTEM,
  user: `Here is a summary of a story so far:
"""
{{summary}}
"""

Here is the next part of the story:
"""
{{text}}
"""

Update the summary so that it also covers the next part: integrate its key events, settings, characters and their motivations, keep the chronology, and make the result read as if it had been written in one go. Return only the updated summary.

Updated summary:`,
};

export const COMPRESS_SUMMARY_TEMPLATE: PromptTemplate = {
  id: 'book.incremental-compress',
  version: '1',
  description: 'Incremental updating: compress the running summary under its budget',
  system: SYSTEM,
  user: `The summary below is too long. Rewrite it in at most {{budget}} words, keeping the main storyline, the key events and characters and the chronology; drop minor details first. Return only the shortened summary.

Summary:
"""
{{summary}}
"""

Shortened summary:`,
};

export const ARTIFACT_REMOVAL_TEMPLATE: PromptTemplate = {
  id: 'book.artifact-removal',
  version: '1',
  description: 'Post-processing: delete process artifacts and non-narrative content, no other edits',
  system: SYSTEM,
  user: `Edit the book summary below. Delete only:
- phrases that reveal how the summary was produced (for example "in this segment", "in the updated summary", "the next part of the story", "so far");
- content about non-narrative sections of the book (table of contents, acknowledgements, author biography, lists of other works, publishing notes).
Make no other changes. Return only the edited summary.

Summary:
"""
{{summary}}
"""

Edited summary:`,
};

export const FULL_CONTEXT_TEMPLATE: PromptTemplate = {
  id: 'book.full-context',
  version: '1',
  description: 'Full-context baseline: summarize the (possibly truncated) book in one call',
  system: SYSTEM,
  user: `Below is a story. Summarize it in at most {{budget}} words, covering the key events, settings, characters and their motivations, in chronological order. Write plain prose.

Story:
"""
{{text}}
"""

Summary:`,
};
