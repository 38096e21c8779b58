import type { ReportBlock } from '../api-types';
import { SortableTable } from './table';

type Chart = NonNullable<ReportBlock['chart']>;

function Bars({ chart }: { chart: Chart }) {
  return (
    <figure class="bars">
      <figcaption>{chart.title}</figcaption>
      {chart.bars.map((b, i) => (
        <div class="bar-row" key={i}>
          <span class="bar-label">{b.label}</span>
          <span class="bar-track">
            {b.share === null ? null : (
              <span class="bar-fill" style={{ width: `${Math.max(0, Math.min(1, b.share)) * 100}%` }} />
            )}
          </span>
          <span class="bar-value">{b.display}</span>
        </div>
      ))}
    </figure>
  );
}

// Every report block (run leaderboards, verdicts, judge samples) is drawn by this one renderer.
export function BlockView({ block }: { block: ReportBlock }) {
  return (
    <section class="block" data-testid={`block-${block.key}`}>
      {block.heading ? <h3>{block.heading}</h3> : null}
      {block.table ? (
        <SortableTable headers={block.table.headers} rows={block.table.rows} testid={`table-${block.key}`} />
      ) : null}
      {block.chart ? <Bars chart={block.chart} /> : null}
      {(block.notes ?? []).map((n, i) => (
        <p class="note" key={i}>
          {n}
        </p>
      ))}
      {block.list ? (
        <ul>
          {block.list.map((item, i) => (
            <li key={i}>{item}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
