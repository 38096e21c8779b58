import type { SampleSort } from '../api-schema';
import { isFiltered, NO_FILTERS, type SampleView, toggleSort } from '../sample-query';

// The table's columns: what each shows, and the server sort its header asks for.
export const SAMPLE_COLUMNS: { label: string; sort: SampleSort | null; numeric?: boolean }[] = [
  { label: 'document', sort: 'document' },
  { label: 'system', sort: 'system' },
  { label: 'metric', sort: 'metric' },
  { label: 'value', sort: 'value', numeric: true },
  { label: 'produced by', sort: 'producedBy' },
  { label: '', sort: null },
];

interface FiltersProps {
  view: SampleView;
  systems: string[];
  metrics: string[];
  onChange: (view: SampleView) => void;
}

function Choice(props: {
  label: string;
  value: string;
  choices: [string, string][];
  testid: string;
  onPick: (value: string) => void;
}) {
  return (
    <label>
      {props.label}{' '}
      <select
        data-testid={props.testid}
        value={props.value}
        onChange={(e) => props.onPick((e.currentTarget as HTMLSelectElement).value)}
      >
        {props.choices.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

// A bound applies when the field is left or Enter is pressed, not at each key.
function Bound(props: { label: string; value: string; testid: string; onSet: (value: string) => void }) {
  return (
    <label>
      {props.label}{' '}
      <input
        type="number"
        step="any"
        data-testid={props.testid}
        value={props.value}
        onChange={(e) => props.onSet((e.currentTarget as HTMLInputElement).value)}
      />
    </label>
  );
}

// Filters the server applies: a system, a metric, a score range, failed or scored samples only.
export function SampleFilters({ view, systems, metrics, onChange }: FiltersProps) {
  const all = (xs: string[], what: string): [string, string][] => [
    ['', `all ${what}`],
    ...xs.map((x) => [x, x] as [string, string]),
  ];
  return (
    <form class="sample-filters" data-testid="sample-filters" onSubmit={(e) => e.preventDefault()}>
      <Choice
        label="system"
        value={view.system}
        choices={all(systems, 'systems')}
        testid="filter-system"
        onPick={(system) => onChange({ ...view, system })}
      />
      <Choice
        label="metric"
        value={view.metric}
        choices={all(metrics, 'metrics')}
        testid="filter-metric"
        onPick={(metric) => onChange({ ...view, metric })}
      />
      <Bound label="min" value={view.min} testid="filter-min" onSet={(min) => onChange({ ...view, min })} />
      <Bound label="max" value={view.max} testid="filter-max" onSet={(max) => onChange({ ...view, max })} />
      <Choice
        label="samples"
        value={view.failed}
        choices={[
          ['', 'all'],
          ['true', 'failed only'],
          ['false', 'scored only'],
        ]}
        testid="filter-failed"
        onPick={(failed) => onChange({ ...view, failed: failed as SampleView['failed'] })}
      />
      {isFiltered(view) ? (
        <button
          type="button"
          class="link"
          onClick={() => onChange({ ...NO_FILTERS, sort: view.sort, order: view.order })}
        >
          Clear filters
        </button>
      ) : null}
    </form>
  );
}

const ariaSort = (view: SampleView, sort: SampleSort | null) =>
  sort !== null && view.sort === sort ? (view.order === 'asc' ? 'ascending' : 'descending') : 'none';

// The header row: a click on a column sorts the whole run by it on the server, a second reverses it.
export function SampleHeader({ view, onChange }: { view: SampleView; onChange: (view: SampleView) => void }) {
  return (
    <tr class="vrow" aria-rowindex={1}>
      {SAMPLE_COLUMNS.map(({ label, sort, numeric }) => (
        <th
          scope="col"
          key={label}
          class={numeric ? 'num' : undefined}
          aria-sort={sort ? ariaSort(view, sort) : undefined}
        >
          {sort ? (
            <button
              type="button"
              class="sort"
              data-testid={`sort-${sort}`}
              onClick={() => onChange(toggleSort(view, sort))}
            >
              <span>{label}</span>
              <span class="arrow" aria-hidden="true">
                {view.sort === sort ? (view.order === 'asc' ? '▲' : '▼') : '↕'}
              </span>
            </button>
          ) : (
            <span class="sr-only">side by side</span>
          )}
        </th>
      ))}
    </tr>
  );
}
