import type { DatasetKindTable } from '@precis/db';
import type { FileAccessPolicy } from '@precis/files';
import type { ChatRequest as LlmChatRequest } from '@precis/llm';
import type { DataSource } from 'typeorm';

export type RunStage = 'retrieve' | 'summarize' | 'verify' | 'score';

// Puts a task on its stage's durable work queue; the bus deduplicates by task id.
export interface TaskDispatcher {
  dispatch(stage: RunStage, taskId: string, runId: string, kind: string): Promise<void>;
}

export type FinalTaskStatus = 'done' | 'failed' | 'dead';

// What a completion says beyond the ids, when the announcer knows it; receivers that need the
// outcome re-read the task's row (the source of truth).
export interface FinishedTaskDetail {
  stage?: string;
  kind?: string;
  status?: FinalTaskStatus;
  error?: string | null;
}

// Announces that a task reached a final state (or stopped its run), so the planner can plan what
// comes next and a caller waiting for the task can answer. runId is '' for a task of no run.
export interface RunEventSink {
  taskFinished(runId: string, taskId: string, detail?: FinishedTaskDetail): Promise<void>;
}

// Counters a host keeps of its stage workers (a service exports them on /metrics).
export interface WorkerMetrics {
  // outcome: done, failed, dead, retried, duplicate, skipped, unknown-kind or malformed.
  handled(stage: string, kind: string, outcome: string): void;
  busy(stage: string, delta: 1 | -1): void;
  handlerSeconds(stage: string, seconds: number): void;
}

// What a run's call carries: the client's request with the ids its ledger row and cache key need
// made mandatory (re-asks add a suffix to templateVersion, so each is a distinct call while a
// re-run of the same task still hits the cache).
export type ChatRequest = Pick<
  LlmChatRequest,
  'model' | 'messages' | 'temperature' | 'anyTemperature' | 'topP' | 'maxTokens' | 'logprobs' | 'topLogprobs'
> &
  Required<Pick<LlmChatRequest, 'runId' | 'taskId' | 'templateVersion' | 'cache'>>;

export type EmbedRequest = {
  model: string;
  input: string[];
  runId?: string;
  taskId?: string;
  cache?: boolean;
};

export interface ChatReply {
  text: string;
  // Present when asked for and returned by the endpoint.
  logprobs?: { token: string; logprob: number; top: { token: string; logprob: number }[] }[];
}

// The model access runs need: implemented over @precis/llm's client.
export interface ChatModel {
  chat(request: ChatRequest): Promise<ChatReply>;
  // Embeddings (dense retrieval), through the same limits, cache and ledger as chat calls.
  embed?(request: EmbedRequest): Promise<{ vectors: number[][] }>;
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

// Reads, checks and parses one dataset file before anything is written, and writes it on
// write(): @precis/ingest's prepareImport, which the host supplies (the engine does not import ingest).
export type PrepareDatasetImport = (
  db: DataSource,
  opts: {
    kind: string;
    kinds: DatasetKindTable;
    path: string;
    documentsPath?: string;
    name: string;
    access?: FileAccessPolicy;
  },
) => Promise<{ write(): Promise<unknown> }>;
