import { useCallback, useEffect, useState } from 'preact/hooks';
import type { ParamsOf } from '../api';
import type { ReportBlock, Trace } from '../api-schema';
import { useFetch } from '../hooks';
import { BlockView } from './block';
import { CallView } from './call-view';
import { ErrorBox, Loading, Note } from './common';
import '../transcript.css';

const PAGE = 20;

// One page of a system's calls, numbered after the pages above it; the last page offers the next.
function CallPageItems({
  params,
  first,
  onLoaded,
  onMore,
}: {
  params: ParamsOf<'/api/v1/runs/{id}/traces/{document}/calls'>;
  first: number;
  onLoaded: (count: number) => void;
  onMore: ((token: string) => void) | null;
}) {
  const { data, error } = useFetch('/api/v1/runs/{id}/traces/{document}/calls', params);
  const count = data?.calls.length;
  useEffect(() => {
    if (count !== undefined) onLoaded(count);
  }, [count, onLoaded]);
  if (error) return <ErrorBox error={error} title="model calls" />;
  if (!data) return <Loading what="model calls" />;
  const left = data.total - first - data.calls.length;
  return (
    <>
      {first === 0 ? (
        <p class="muted" data-testid="calls-total">
          {data.total} model {data.total === 1 ? 'call' : 'calls'}, in the order they were made
        </p>
      ) : null}
      <ol class="calls" start={first + 1}>
        {data.calls.map((c, i) => (
          <CallView key={c.id} call={c} n={first + i + 1} />
        ))}
      </ol>
      {onMore && data.nextPageToken ? (
        <button type="button" class="more-calls" onClick={() => onMore(data.nextPageToken)}>
          Show more calls ({left} left)
        </button>
      ) : null}
    </>
  );
}

// A system's calls a page at a time (a page may hold fewer than PAGE when its prompts are long).
function CallPages({ runId, documentId, system }: { runId: string; documentId: string; system: string }) {
  const [tokens, setTokens] = useState<string[]>(['']);
  const [counts, setCounts] = useState<number[]>([]);
  const loaded = useCallback(
    (page: number) => (n: number) =>
      setCounts((c) => {
        if (c[page] === n) return c;
        const next = [...c];
        next[page] = n;
        return next;
      }),
    [],
  );
  const path = { id: runId, document: documentId };
  return (
    <div data-testid={`calls-${system}`}>
      {tokens.map((t, i) => (
        <CallPageItems
          key={t}
          params={{ path, query: { system, limit: PAGE, ...(t ? { pageToken: t } : {}) } }}
          first={counts.slice(0, i).reduce((sum, n) => sum + (n ?? 0), 0)}
          onLoaded={loaded(i)}
          onMore={i === tokens.length - 1 ? (next) => setTokens([...tokens, next]) : null}
        />
      ))}
    </div>
  );
}

// A family's verdict blocks of one system (keys `trace.<system>` and `trace.<system>.<part>`).
export const systemVerdicts = (verdicts: ReportBlock[], system: string) =>
  verdicts.filter((b) => b.key === `trace.${system}` || b.key.startsWith(`trace.${system}.`));

// A sample's transcript: every model call behind a system's summary of the document and its
// judgments, in order, then the verdicts. Calls are read when it is opened.
function SystemTranscript({ runId, trace, system }: { runId: string; trace: Trace; system: string }) {
  const [open, setOpen] = useState(false);
  const verdicts = systemVerdicts(trace.verdicts, system);
  return (
    <details
      class="block transcript"
      data-testid={`transcript-${system}`}
      onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}
    >
      <summary>
        <strong>{system}</strong>: model calls{verdicts.length ? ', then verdicts' : ''}
      </summary>
      {open ? <CallPages runId={runId} documentId={trace.document.id} system={system} /> : null}
      {open && verdicts.length ? <h4>Verdicts</h4> : null}
      {open ? verdicts.map((b) => <BlockView key={b.key} block={b} />) : null}
    </details>
  );
}

export function Transcripts({ runId, trace }: { runId: string; trace: Trace }) {
  return (
    <section data-testid="transcripts">
      <h2>Transcripts</h2>
      <Note>
        Each system's model calls for this document: prompts, raw replies (reasoning apart), tokens, latency,
        cost and cache, then the verdicts on its summary.
      </Note>
      {trace.systems.map((s) => (
        <SystemTranscript key={s.system} runId={runId} trace={trace} system={s.system} />
      ))}
    </section>
  );
}
