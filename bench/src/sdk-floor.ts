import { createOpenAiSdk, type ModelSpec } from '@precis/llm';
import type OpenAI from 'openai';
import type { DataSource } from 'typeorm';
import { inParallel } from './in-parallel.js';

// The openai SDK alone (with Precis's HTTP fetch), sending again the requests a run's verifiers
// sent, `concurrency` at a time: the CPU per call that any client built on the SDK pays, so the
// verifiers' CPU per task splits into that floor and Precis's own work around each call.
export async function sdkFloor(
  db: DataSource,
  runId: string,
  spec: ModelSpec,
  concurrency: number,
): Promise<{ calls: number; cpuMsPerCall: number }> {
  const rows: { request: OpenAI.ChatCompletionCreateParamsNonStreaming }[] = await db.query(
    `SELECT request FROM llm_calls WHERE run_id = $1 AND status = 'ok' AND kind = 'chat' ORDER BY created_at`,
    [runId],
  );
  if (rows.length === 0) throw new Error(`run ${runId} made no chat calls to send again`);
  const sdk = createOpenAiSdk(spec, undefined);
  // As the client sends each call: no SDK retries, a signal to abort it, the model's timeout.
  const send = (i: number) =>
    sdk.chat.completions.create(rows[i]!.request, {
      signal: new AbortController().signal,
      maxRetries: 0,
      timeout: spec.timeoutMs + 5_000,
    });
  // One pass first: connections and the SDK's code warm, as they are in a verifier mid-run.
  await inParallel(Math.min(rows.length, concurrency * 4), concurrency, send);
  const before = process.cpuUsage();
  await inParallel(rows.length, concurrency, send);
  const used = process.cpuUsage(before);
  return { calls: rows.length, cpuMsPerCall: (used.user + used.system) / 1000 / rows.length };
}
