// A provider's Batch API (OpenAI's file format: OpenAI, Azure OpenAI, Groq, Together, Gemini's
// OpenAI layer, vLLM run-batch) through the openai client: input files within the provider's
// limits, upload and create, the batch's state, its answers per custom_id, cancel.
import type OpenAI from 'openai';

export type BatchEndpoint = '/v1/chat/completions' | '/v1/embeddings';

// The client a provider's Batch API is reached with (the openai SDK's).
export type BatchClient = OpenAI;

// One call of a batch: its custom_id (the call's cache key) and the body it would send online.
export interface BatchRequest {
  customId: string;
  body: Record<string, unknown>;
}

export interface BatchFileLimits {
  // Most requests and bytes one input file may hold (OpenAI: 50,000 and 200 MB).
  maxRequests: number;
  maxBytes: number;
}

export type ProviderBatchStatus =
  | 'validating'
  | 'failed'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

// Statuses after which the provider changes nothing more.
export const ENDED_BATCH_STATUSES: readonly ProviderBatchStatus[] = [
  'completed',
  'failed',
  'expired',
  'cancelled',
];

export interface ProviderBatchState {
  id: string;
  status: ProviderBatchStatus;
  counts: { total: number; completed: number; failed: number };
  outputFileId: string | null;
  errorFileId: string | null;
  // Why the provider refused the input file (status failed), one line per problem.
  errors: string[];
}

// A call's answer from the output file, or its error from the error file. `expired`: the window
// closed before the provider ran it (send it again); `status`: the HTTP status it got.
export type BatchLineResult =
  | { customId: string; ok: true; body: unknown }
  | { customId: string; ok: false; expired: boolean; status: number | null; message: string };

export class BatchFileError extends Error {}

// Statuses a call may be sent again after, as online calls are retried: none (the connection or
// the batch failed), timeouts, conflicts, rate limits, 5xx.
export const isTransientStatus = (status: number | null) =>
  status === null || status === 408 || status === 409 || status === 429 || status >= 500;

// The requests as JSONL input files, each within `limits` (in the order given).
export function batchInputFiles(
  requests: BatchRequest[],
  endpoint: BatchEndpoint,
  limits: BatchFileLimits,
): string[] {
  const files: string[] = [];
  let lines: string[] = [];
  let bytes = 0;
  for (const r of requests) {
    const line = `${JSON.stringify({ custom_id: r.customId, method: 'POST', url: endpoint, body: r.body })}\n`;
    const size = Buffer.byteLength(line);
    if (size > limits.maxBytes)
      throw new BatchFileError(
        `call ${r.customId} alone is ${size} bytes, over the batch file limit of ${limits.maxBytes} bytes (registry batch.maxBytes): send it online`,
      );
    if (lines.length >= limits.maxRequests || bytes + size > limits.maxBytes) {
      files.push(lines.join(''));
      lines = [];
      bytes = 0;
    }
    lines.push(line);
    bytes += size;
  }
  if (lines.length > 0) files.push(lines.join(''));
  return files;
}

// Uploads one input file (purpose batch) and creates its batch: the provider's batch id.
export async function submitBatch(
  openai: OpenAI,
  input: { jsonl: string; endpoint: BatchEndpoint; name: string; metadata?: Record<string, string> },
): Promise<{ fileId: string; batchId: string }> {
  const file = await openai.files.create({
    file: new File([input.jsonl], input.name, { type: 'application/jsonl' }),
    purpose: 'batch',
  });
  const batch = await openai.batches.create({
    input_file_id: file.id,
    endpoint: input.endpoint,
    completion_window: '24h',
    metadata: input.metadata,
  });
  return { fileId: file.id, batchId: batch.id };
}

export async function readBatch(openai: OpenAI, batchId: string): Promise<ProviderBatchState> {
  const b = await openai.batches.retrieve(batchId);
  const counts = b.request_counts ?? { total: 0, completed: 0, failed: 0 };
  return {
    id: b.id,
    status: b.status as ProviderBatchStatus,
    counts: { total: counts.total, completed: counts.completed, failed: counts.failed },
    outputFileId: b.output_file_id ?? null,
    errorFileId: b.error_file_id ?? null,
    errors: (b.errors?.data ?? []).map(
      (e) => `${e.line ? `line ${e.line}: ` : ''}${e.code ?? 'error'}: ${e.message ?? ''}`,
    ),
  };
}

export async function cancelBatch(openai: OpenAI, batchId: string): Promise<ProviderBatchStatus> {
  return (await openai.batches.cancel(batchId)).status as ProviderBatchStatus;
}

// Every line of an ended batch's output and error files.
export async function batchResults(openai: OpenAI, state: ProviderBatchState): Promise<BatchLineResult[]> {
  const results: BatchLineResult[] = [];
  for (const fileId of [state.outputFileId, state.errorFileId]) {
    if (!fileId) continue;
    const text = await (await openai.files.content(fileId)).text();
    text.split('\n').forEach((raw, i) => {
      if (raw.trim()) results.push(parseResultLine(raw, `${fileId} line ${i + 1}`));
    });
  }
  return results;
}

interface ResultLine {
  custom_id?: unknown;
  response?: { status_code?: number; body?: { error?: { message?: string } } } | null;
  error?: { code?: string; message?: string } | null;
}

function parseResultLine(raw: string, where: string): BatchLineResult {
  let row: ResultLine;
  try {
    row = JSON.parse(raw);
  } catch {
    throw new BatchFileError(`${where} of the provider's batch results is not JSON: ${raw.slice(0, 80)}`);
  }
  if (typeof row.custom_id !== 'string') throw new BatchFileError(`${where} has no custom_id`);
  const customId = row.custom_id;
  const status = row.response?.status_code ?? null;
  if (status === 200 && !row.error) return { customId, ok: true, body: row.response?.body };
  const expired = row.error?.code === 'batch_expired';
  const message =
    row.error?.message ??
    row.response?.body?.error?.message ??
    `HTTP ${status ?? 'no status'} without a message`;
  return { customId, ok: false, expired, status, message };
}
