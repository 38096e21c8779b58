import type { ModelEntry, RunFacts } from '../api-schema';
import { useFetch } from '../hooks';
import { ErrorBox, Loading, Note } from './common';
import { LongText } from './long-text';
import { SortableTable } from './table';
import '../transcript.css';

type Model = RunFacts['models'][number];

const MODEL_HEADERS = [
  'model',
  'provider',
  'model id',
  'base URL',
  'key variable',
  'context window',
  'USD per 1M in / out / cached in',
  'limits',
  'calls',
  'used by',
];

const limits = (e: ModelEntry) =>
  [
    `${e.maxConcurrency} at once`,
    e.requestsPerMinute === null ? null : `${e.requestsPerMinute} req/min`,
    e.tokensPerMinute === null ? null : `${e.tokensPerMinute} tokens/min`,
    `timeout ${e.timeoutMs} ms`,
    `${e.maxRetries} retries`,
    `${e.defaultMaxTokens} max tokens`,
  ]
    .filter((x) => x !== null)
    .join(', ');

// A model the run names or called, with its registry entry (never a key: its variable's name).
function modelRow(m: Model): string[] {
  const e = m.entry;
  const called = `${m.calls}${m.modelIds.length ? ` (${m.modelIds.join(', ')})` : ''}`;
  if (!e)
    return [
      m.name,
      '–',
      '–',
      'not in this server’s model registry',
      '–',
      '–',
      '–',
      '–',
      called,
      m.uses.join(', '),
    ];
  return [
    m.name,
    e.provider,
    e.modelId,
    e.baseURL,
    e.apiKeyEnv ?? 'none',
    String(e.contextWindow),
    `${e.pricePer1MInput} / ${e.pricePer1MOutput} / ${e.pricePer1MCachedInput}`,
    limits(e),
    called,
    m.uses.join(', '),
  ];
}

function Models({ facts }: { facts: RunFacts }) {
  if (facts.models.length === 0) return <Note>No model: the run's systems and metrics ran offline.</Note>;
  return (
    <>
      <SortableTable headers={MODEL_HEADERS} rows={facts.models.map(modelRow)} testid="run-models" />
      {facts.models.map((m) =>
        m.entry ? (
          <LongText
            key={m.name}
            label={`${m.name}: capabilities and reasoning`}
            text={JSON.stringify(
              {
                capabilities: m.entry.capabilities,
                reasoning: m.entry.reasoning,
                thinking: m.entry.thinking,
              },
              null,
              2,
            )}
            testid="model-capabilities"
          />
        ) : null,
      )}
    </>
  );
}

function Templates({ facts }: { facts: RunFacts }) {
  const rows = facts.templates.map((t) => [
    t.id,
    t.family,
    t.version,
    t.overridden ? 'overridden by the spec' : 'built in',
    t.description,
  ]);
  const versions = facts.ledgerVersions.map((v) => `${v.version} (${v.calls})`).join(', ');
  return (
    <>
      <SortableTable
        headers={['template', 'family', 'version', 'text', 'description']}
        rows={rows}
        testid="run-templates"
      />
      {versions ? <Note>Template versions of the run's model calls (calls): {versions}.</Note> : null}
      <details class="template-texts">
        <summary>Template texts</summary>
        {facts.templates.map((t) => (
          <div key={t.id}>
            {t.system !== null ? (
              <LongText label={`${t.id}@${t.version} system`} text={t.system} testid="template-text" />
            ) : null}
            <LongText label={`${t.id}@${t.version} user`} text={t.user} testid="template-text" />
          </div>
        ))}
      </details>
    </>
  );
}

function Facts({ facts }: { facts: RunFacts }) {
  return (
    <>
      <dl class="facts">
        <div>
          <dt>seed</dt>
          <dd data-testid="run-seed">{facts.seed}</dd>
        </div>
        <div>
          <dt>model registry</dt>
          <dd>{facts.registry ?? 'none loaded by this server'}</dd>
        </div>
      </dl>
      <details class="run-spec" data-testid="run-spec">
        <summary>Spec as submitted</summary>
        <pre>{JSON.stringify(facts.spec, null, 2)}</pre>
      </details>
      <h3>Models</h3>
      <Models facts={facts} />
      <h3>Prompt templates</h3>
      <Templates facts={facts} />
    </>
  );
}

// The run's own facts: its spec, seed, models with their registry entries, and its templates.
export function RunFactsView({ runId }: { runId: string }) {
  const { data, error } = useFetch('/api/v1/runs/{id}/facts', { path: { id: runId } });
  return (
    <section class="block run-facts" data-testid="run-facts">
      <h2>About this run</h2>
      {error ? <ErrorBox error={error} title="the run's spec and models" /> : null}
      {data ? <Facts facts={data} /> : error ? null : <Loading what="the run's spec and models" />}
    </section>
  );
}
