import type { LedgerCall } from '../api-schema';
import { LongText } from './long-text';

const usd = (n: number) => `$${n.toFixed(6)}`;

// Tokens as the ledger has them: prompt (cached share), output (reasoning share).
const tokens = (c: LedgerCall) =>
  `${c.tokensIn} in (${c.tokensCached} cached) · ${c.tokensOut} out (${c.tokensReasoning} reasoning)`;

function Fact({ name, value, testid }: { name: string; value: string; testid?: string }) {
  return (
    <div>
      <dt>{name}</dt>
      <dd data-testid={testid}>{value}</dd>
    </div>
  );
}

// Where a cache hit's answer came from: the stored call(s) whose reply it replayed.
function CacheSource({ call }: { call: LedgerCall }) {
  if (!call.cacheHit) return null;
  if (call.cachedFrom.length === 0)
    return <p class="note">Answered from the cache; the call that filled the entry is no longer stored.</p>;
  return (
    <p class="note" data-testid="call-cached-from">
      Answered from the cache: the reply of{' '}
      {call.cachedFrom.map((f, i) => (
        <span key={f.id}>
          {i > 0 ? '; ' : ''}call <span class="mono">{f.id}</span> (task{' '}
          <span class="mono">{f.taskId ?? '–'}</span>,{' '}
          {f.runId === null ? 'no run' : `run ${f.runId.slice(0, 8)}`}, {f.createdAt})
        </span>
      ))}
      .
    </p>
  );
}

// One model call: its figures, the prompt, each reply's reasoning and answer, the raw bodies.
export function CallView({ call, n }: { call: LedgerCall; n: number }) {
  const cost = call.cacheHit ? `${usd(call.costUsd)} (list ${usd(call.listCostUsd)})` : usd(call.costUsd);
  return (
    <li class="call" data-testid="call" data-stage={call.stage} data-task={call.taskId}>
      <div class="call-head">
        <span class="muted">#{n}</span> <strong>{call.stage}</strong>{' '}
        <span class={`call-status call-status-${call.status}`}>{call.status}</span>
        {call.cacheHit ? <span class="call-status call-status-cached">cache hit</span> : null}{' '}
        <span class="muted small mono">{call.taskId}</span>
      </div>
      <dl class="facts call-facts">
        <Fact name="model" value={`${call.model} (${call.modelId})`} testid="call-model" />
        <Fact name="tokens" value={tokens(call)} testid="call-tokens" />
        <Fact name="latency" value={`${call.latencyMs} ms`} />
        <Fact name="cost" value={cost} testid="call-cost" />
        <Fact name="attempts" value={String(call.attempts)} />
        {call.templateVersion !== null ? <Fact name="template" value={call.templateVersion} /> : null}
        <Fact name="at" value={call.createdAt} />
      </dl>
      <CacheSource call={call} />
      {call.notes.map((note, i) => (
        <p class="note" key={i}>
          {note}
        </p>
      ))}
      {call.error ? <p class="run-error">{call.error}</p> : null}
      {call.messages.map((m, i) => (
        <LongText key={`m${i}`} label={m.role} text={m.content} testid="call-message" />
      ))}
      {call.replies.map((r, i) => (
        <div key={`r${i}`} class="call-reply">
          {r.reasoning !== null ? (
            <LongText label="reasoning" text={r.reasoning} testid="call-reasoning" />
          ) : null}
          <LongText
            label={`reply${call.replies.length > 1 ? ` ${i + 1}` : ''}${r.finishReason && r.finishReason !== 'stop' ? ` (${r.finishReason})` : ''}`}
            text={r.text}
            testid="call-reply"
          />
        </div>
      ))}
      <details class="call-raw">
        <summary>raw request fields and reply</summary>
        <pre data-testid="call-raw">
          {JSON.stringify({ params: call.params, response: call.response }, null, 2)}
        </pre>
      </details>
    </li>
  );
}
