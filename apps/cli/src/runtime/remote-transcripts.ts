import type { LedgerCall } from '@precis/contracts';
import type { DocumentTrace, LedgerCallView } from '@precis/engine';
import { callMetadata } from './remote-access.js';
import { RemoteRuns } from './remote-runs.js';

const iso = (d: Date | undefined) => (d ?? new Date(0)).toISOString();

// A call as the gateway sent it, back in the shape the CLI prints from its own database (the
// gateway maps the other way: packages/api transcript.mapper.ts).
export function fromProtoLedgerCall(c: LedgerCall): LedgerCallView {
  return {
    id: c.id,
    taskId: c.taskId,
    stage: c.stage,
    system: c.system,
    model: c.model,
    modelId: c.modelId,
    kind: c.kind,
    status: c.status,
    cacheHit: c.cacheHit,
    calls: c.calls,
    templateVersion: c.templateVersion || null,
    createdAt: iso(c.createTime),
    latencyMs: c.latencyMs,
    attempts: c.attempts,
    error: c.error || null,
    notes: c.notes,
    tokensIn: c.tokensIn,
    tokensCached: c.tokensCached,
    tokensOut: c.tokensOut,
    tokensReasoning: c.tokensReasoning,
    costUsd: c.costUsd,
    listCostUsd: c.listCostUsd,
    messages: c.messages.map((m) => ({ role: m.role, content: m.content })),
    params: JSON.parse(c.paramsJson || '{}') as Record<string, unknown>,
    replies: c.replies.map((r) => ({
      text: r.text,
      reasoning: r.reasoning ?? null,
      finishReason: r.finishReason || null,
    })),
    response: JSON.parse(c.responseJson || 'null') as unknown,
    cachedFrom: c.cachedFrom.map((f) => ({
      id: f.id,
      runId: f.runId || null,
      taskId: f.taskId || null,
      createdAt: iso(f.createTime),
    })),
  };
}

// `runs show --trace [--calls] --remote`: a document's trace and model calls from the gateway
// (precis.v1.RunService's transcript methods, on the run client's channel and deadline).
export class RemoteTranscripts extends RemoteRuns {
  async trace(runId: string, document: string): Promise<DocumentTrace> {
    const res = await this.call<{ traceJson: string }>((o, cb) =>
      this.client.getDocumentTrace({ runId, document }, callMetadata(this.access), o, cb),
    );
    return JSON.parse(res.traceJson) as DocumentTrace;
  }

  // Every call of the document, page by page.
  async calls(runId: string, document: string): Promise<LedgerCallView[]> {
    const out: LedgerCallView[] = [];
    let pageToken = '';
    do {
      const request = { runId, document, system: '', pageSize: 100, pageToken };
      const page = await this.call<{ calls: LedgerCall[]; nextPageToken: string }>((o, cb) =>
        this.client.listDocumentCalls(request, callMetadata(this.access), o, cb),
      );
      out.push(...page.calls.map(fromProtoLedgerCall));
      pageToken = page.nextPageToken;
    } while (pageToken);
    return out;
  }
}
