import type { ChatMessage } from '@precis/prompts';

export type RunStage = 'summarize' | 'verify' | 'score';

// Puts a task on its stage's durable work queue; the bus deduplicates by task id.
export interface TaskDispatcher {
  dispatch(stage: RunStage, taskId: string, runId: string, kind: string): Promise<void>;
}

// Tells the planner that a task reached a final state, so it can plan what comes next.
export interface RunEventSink {
  taskFinished(runId: string, taskId: string): Promise<void>;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  runId: string;
  taskId: string;
  // Part of the cache key: regenerations and re-asks add a suffix, so each is a distinct call
  // while a re-run of the same task still hits the cache.
  templateVersion: string;
  cache: boolean;
  // Token logprobs of the reply, with this many alternatives per token (logprob-weighted judges).
  logprobs?: boolean;
  topLogprobs?: number;
}

export interface ChatReply {
  text: string;
  // Present when asked for and returned by the endpoint.
  logprobs?: { token: string; logprob: number; top: { token: string; logprob: number }[] }[];
}

// The model access runs need: implemented over @precis/llm's client.
export interface ChatModel {
  chat(request: ChatRequest): Promise<ChatReply>;
  // `count` independent samples of one prompt, each its own call and cache entry (template
  // version suffixed "#sample-<k>"); a re-run hits the cache sample by sample.
  chatSamples(request: ChatRequest, count: number): Promise<ChatReply[]>;
}

export interface RunLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: RunLogger = { info() {}, warn() {}, error() {} };
