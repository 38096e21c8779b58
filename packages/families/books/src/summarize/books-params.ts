import { int, type SystemSpec, samplingParams } from '@precis/engine/family';
import { z } from 'zod';

// What the book strategies add to `systems[].params`. The engine's sampling fields are listed
// among them to keep the order the fields had when the engine declared them all: a spec's stored
// form and its hash, by which `precis run` resumes a run, depend on it.
export const booksParams = {
  chunkSize: int().min(16).default(2048),
  contextWindow: int().min(256).optional(),
  levelBudgets: z.array(int().positive()).min(1).default([500]),
  runningBudget: int().positive().default(900),
  temperature: samplingParams.temperature,
  topP: samplingParams.topP,
  compressionTemperature: z.number().min(0).max(2).default(1),
  maxRegenerations: int().min(0).max(10).default(3),
  artifactRemoval: z.boolean().default(false),
  encoding: z.enum(['cl100k_base', 'o200k_base']).default('cl100k_base'),
  maxTokens: samplingParams.maxTokens,
};

export type BooksParams = z.output<z.ZodObject<typeof booksParams>>;

// A system's book params as the spec schema parsed them (every system has them, defaults applied).
export const booksParamsOf = (system: SystemSpec): BooksParams => system.params as BooksParams;
