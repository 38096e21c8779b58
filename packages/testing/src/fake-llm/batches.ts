// OpenAI's Batch API on the fake server: create, retrieve, list, cancel, with the real status
// sequence (validating -> in_progress -> finalizing -> completed; failed on a bad input file;
// expired; cancelling -> cancelled), output and error files in OpenAI's line format, a delay per
// phase, per-request faults (the fault plan) and a share of requests left to expire.
import { BatchApiError, type FileStore } from './batch-files.js';

export type FakeBatchStatus =
  | 'validating'
  | 'failed'
  | 'in_progress'
  | 'finalizing'
  | 'completed'
  | 'expired'
  | 'cancelling'
  | 'cancelled';

export interface FakeBatchOptions {
  // How long each phase (validating, in progress, finalizing, cancelling) lasts, in ms (default 0).
  delayMs?: number;
  // Share (0..1) of each batch's requests the window "expires" on: the batch ends `expired`, those
  // requests in its error file with code batch_expired (spread evenly over the file).
  expireShare?: number;
  // Most requests one input file may hold (OpenAI: 50,000).
  maxRequests?: number;
}

export interface FakeBatchStats {
  filesUploaded: number;
  batchesCreated: number;
  requestsAnswered: number;
  requestsFailed: number;
  requestsExpired: number;
  batchesCancelled: number;
}

// One request line answered as the endpoint answers it online (status and JSON body).
export type BatchAnswer = (url: string, body: Record<string, unknown>) => { status: number; body: unknown };

interface BatchLine {
  custom_id: string;
  url: string;
  body: Record<string, unknown>;
}

type Stamp = number | null;

export interface FakeBatch {
  id: string;
  object: 'batch';
  endpoint: string;
  errors: { object: 'list'; data: { code: string; message: string; line: number | null }[] } | null;
  input_file_id: string;
  completion_window: string;
  status: FakeBatchStatus;
  output_file_id: string | null;
  error_file_id: string | null;
  created_at: number;
  in_progress_at: Stamp;
  expires_at: number;
  finalizing_at: Stamp;
  completed_at: Stamp;
  failed_at: Stamp;
  expired_at: Stamp;
  cancelling_at: Stamp;
  cancelled_at: Stamp;
  request_counts: { total: number; completed: number; failed: number };
  metadata: Record<string, string> | null;
}

const now = () => Math.floor(Date.now() / 1000);
const ENDPOINTS = new Set(['/v1/chat/completions', '/v1/embeddings']);

export class BatchDesk {
  private readonly batches = new Map<string, FakeBatch>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private seq = 0;
  private reqSeq = 0;
  private counts = { created: 0, answered: 0, failed: 0, expired: 0, cancelled: 0 };
  delayMs: number;
  expireShare: number;
  readonly maxRequests: number;

  constructor(
    readonly files: FileStore,
    opts: FakeBatchOptions,
    private readonly answer: BatchAnswer,
  ) {
    this.delayMs = opts.delayMs ?? 0;
    this.expireShare = opts.expireShare ?? 0;
    this.maxRequests = opts.maxRequests ?? 50_000;
  }

  create(body: Record<string, unknown>): FakeBatch {
    const input = String(body.input_file_id ?? '');
    const endpoint = String(body.endpoint ?? '');
    if (!ENDPOINTS.has(endpoint))
      throw new BatchApiError(400, `endpoint must be one of ${[...ENDPOINTS].join(', ')}, got '${endpoint}'`);
    if (body.completion_window !== '24h')
      throw new BatchApiError(
        400,
        `completion_window must be '24h', got '${String(body.completion_window)}'`,
      );
    this.files.get(input);
    const created = now();
    const batch: FakeBatch = {
      id: `batch_fake${String(++this.seq).padStart(6, '0')}`,
      object: 'batch',
      endpoint,
      errors: null,
      input_file_id: input,
      completion_window: '24h',
      status: 'validating',
      output_file_id: null,
      error_file_id: null,
      created_at: created,
      in_progress_at: null,
      expires_at: created + 86_400,
      finalizing_at: null,
      completed_at: null,
      failed_at: null,
      expired_at: null,
      cancelling_at: null,
      cancelled_at: null,
      request_counts: { total: 0, completed: 0, failed: 0 },
      metadata: (body.metadata as Record<string, string> | undefined) ?? null,
    };
    this.batches.set(batch.id, batch);
    this.counts.created++;
    this.later(() => this.validate(batch));
    return { ...batch };
  }

  get(id: string): FakeBatch {
    const batch = this.batches.get(id);
    if (!batch) throw new BatchApiError(404, `No batch found with id '${id}'.`);
    return { ...batch };
  }

  // Newest first, as OpenAI lists them; `after` is the id of the last batch of the previous page.
  list(after: string | null, limit: number) {
    const all = [...this.batches.values()].reverse();
    const from = after ? all.findIndex((b) => b.id === after) + 1 : 0;
    const data = all.slice(from, from + limit).map((b) => ({ ...b }));
    return {
      object: 'list',
      data,
      first_id: data[0]?.id ?? null,
      last_id: data.at(-1)?.id ?? null,
      has_more: from + limit < all.length,
    };
  }

  cancel(id: string): FakeBatch {
    const batch = this.batches.get(id);
    if (!batch) throw new BatchApiError(404, `No batch found with id '${id}'.`);
    if (batch.status !== 'validating' && batch.status !== 'in_progress')
      throw new BatchApiError(400, `Cannot cancel a batch with status '${batch.status}'.`);
    batch.status = 'cancelling';
    batch.cancelling_at = now();
    this.later(() => {
      batch.status = 'cancelled';
      batch.cancelled_at = now();
      this.counts.cancelled++;
    });
    return { ...batch };
  }

  stats(): FakeBatchStats {
    return {
      filesUploaded: this.files.uploads,
      batchesCreated: this.counts.created,
      requestsAnswered: this.counts.answered,
      requestsFailed: this.counts.failed,
      requestsExpired: this.counts.expired,
      batchesCancelled: this.counts.cancelled,
    };
  }

  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  private later(step: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      step();
    }, this.delayMs);
    this.timers.add(timer);
  }

  private validate(batch: FakeBatch): void {
    if (batch.status !== 'validating') return;
    const { lines, errors } = parseInput(
      this.files.text(batch.input_file_id),
      batch.endpoint,
      this.maxRequests,
    );
    if (errors.length > 0) {
      batch.status = 'failed';
      batch.failed_at = now();
      batch.errors = { object: 'list', data: errors };
      return;
    }
    batch.status = 'in_progress';
    batch.in_progress_at = now();
    batch.request_counts.total = lines.length;
    this.later(() => this.run(batch, lines));
  }

  private run(batch: FakeBatch, lines: BatchLine[]): void {
    if (batch.status !== 'in_progress') return;
    const out: string[] = [];
    const err: string[] = [];
    let expired = 0;
    lines.forEach((line, i) => {
      const id = `batch_req_fake${String(++this.reqSeq).padStart(8, '0')}`;
      if (Math.floor((i + 1) * this.expireShare) > Math.floor(i * this.expireShare)) {
        expired++;
        const error = {
          code: 'batch_expired',
          message: 'This request could not be executed before the completion window expired.',
        };
        err.push(JSON.stringify({ id, custom_id: line.custom_id, response: null, error }));
        return;
      }
      const { status, body } = this.answer(line.url, line.body);
      const response = { status_code: status, request_id: `req-fake-batch-${this.reqSeq}`, body };
      (status === 200 ? out : err).push(
        JSON.stringify({ id, custom_id: line.custom_id, response, error: null }),
      );
    });
    const failed = err.length - expired;
    batch.request_counts = { total: lines.length, completed: out.length, failed: err.length };
    this.counts.answered += out.length;
    this.counts.failed += failed;
    this.counts.expired += expired;
    const write = (kind: string, rows: string[]) =>
      rows.length
        ? this.files.add(`${batch.id}_${kind}.jsonl`, `batch_${kind}`, `${rows.join('\n')}\n`).id
        : null;
    if (expired > 0) {
      batch.output_file_id = write('output', out);
      batch.error_file_id = write('error', err);
      batch.status = 'expired';
      batch.expired_at = now();
      return;
    }
    batch.status = 'finalizing';
    batch.finalizing_at = now();
    this.later(() => {
      batch.output_file_id = write('output', out);
      batch.error_file_id = write('error', err);
      batch.status = 'completed';
      batch.completed_at = now();
    });
  }
}

// The input file's request lines, or what is wrong with it (line numbers from 1).
function parseInput(text: string, endpoint: string, maxRequests: number) {
  const lines: BatchLine[] = [];
  const errors: { code: string; message: string; line: number | null }[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let row: Partial<BatchLine> & { method?: string };
    try {
      row = JSON.parse(raw);
    } catch {
      errors.push({
        code: 'invalid_json_line',
        message: 'This line is not parseable as valid JSON.',
        line: i + 1,
      });
      return;
    }
    if (typeof row.custom_id !== 'string' || row.method !== 'POST' || typeof row.body !== 'object')
      errors.push({
        code: 'invalid_request',
        message: 'A line needs custom_id, method POST and a body.',
        line: i + 1,
      });
    else if (row.url !== endpoint)
      errors.push({ code: 'mismatched_endpoint', message: `The url must be ${endpoint}.`, line: i + 1 });
    else if (seen.has(row.custom_id))
      errors.push({
        code: 'duplicate_custom_id',
        message: `custom_id ${row.custom_id} is used twice.`,
        line: i + 1,
      });
    else {
      seen.add(row.custom_id);
      lines.push(row as BatchLine);
    }
  });
  if (lines.length === 0 && errors.length === 0)
    errors.push({ code: 'empty_file', message: 'The input file holds no requests.', line: null });
  if (lines.length > maxRequests)
    errors.push({
      code: 'too_many_requests',
      message: `The input file holds ${lines.length} requests; at most ${maxRequests} are allowed.`,
      line: null,
    });
  return { lines, errors };
}
