import type { PromptTemplate } from '@precis/prompts';
import {
  ARTIFACT_REMOVAL_TEMPLATE,
  CHUNK_SUMMARY_TEMPLATE,
  COMPRESS_SUMMARY_TEMPLATE,
  FULL_CONTEXT_TEMPLATE,
  INITIAL_SUMMARY_TEMPLATE,
  MERGE_TEMPLATE,
  MERGE_WITH_CONTEXT_TEMPLATE,
  UPDATE_SUMMARY_TEMPLATE,
} from '../prompts/book.templates.js';

export interface StrategyTemplates {
  chunk: PromptTemplate;
  merge: PromptTemplate;
  mergeWithContext: PromptTemplate;
  initial: PromptTemplate;
  update: PromptTemplate;
  compress: PromptTemplate;
  clean: PromptTemplate;
  full: PromptTemplate;
}

export const DEFAULT_TEMPLATES: StrategyTemplates = {
  chunk: CHUNK_SUMMARY_TEMPLATE,
  merge: MERGE_TEMPLATE,
  mergeWithContext: MERGE_WITH_CONTEXT_TEMPLATE,
  initial: INITIAL_SUMMARY_TEMPLATE,
  update: UPDATE_SUMMARY_TEMPLATE,
  compress: COMPRESS_SUMMARY_TEMPLATE,
  clean: ARTIFACT_REMOVAL_TEMPLATE,
  full: FULL_CONTEXT_TEMPLATE,
};
