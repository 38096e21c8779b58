import type { ReportBlock, ReportSection } from '../api-schema';
import { ModelText } from './model-text';
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

// A rank cell: a rank several systems share ('=2') is marked so the tie is visible.
function rankCell(cell: string) {
  return cell.startsWith('=') ? (
    <span class="tied" title={`several systems share rank ${cell.slice(1)}`}>
      {cell} <span class="tie-mark">tied</span>
    </span>
  ) : (
    cell
  );
}

// A block's heading: a leaderboard's title for people, what ranks it, and its internal id small.
function Heading({ block, section }: { block: ReportBlock; section?: ReportSection }) {
  if (section)
    return (
      <h3 data-testid={`section-title-${block.key}`}>
        {section.title}{' '}
        <span class="ranked-by">
          ranked by <strong>{section.rankingColumn}</strong>
        </span>{' '}
        <small class="block-label">{section.label}</small>
      </h3>
    );
  if (!block.heading) return null;
  return (
    <h3>
      {block.heading} {block.label ? <small class="block-label">{block.label}</small> : null}
    </h3>
  );
}

// Every report block (run leaderboards, verdicts, judge samples) is drawn by this one renderer; a
// leaderboard's section (same key) names it and its ranking column.
export function BlockView({ block, section }: { block: ReportBlock; section?: ReportSection }) {
  const rankingCol = section && block.table ? block.table.headers.indexOf(section.rankingColumn) : -1;
  const renderCell = section
    ? (cell: string, _row: number, col: number) =>
        col === 0 ? rankCell(cell) : col === rankingCol ? <strong class="ranking">{cell}</strong> : cell
    : undefined;
  return (
    <section class="block" data-testid={`block-${block.key}`}>
      <Heading block={block} section={section} />
      {block.table ? (
        <SortableTable
          headers={block.table.headers}
          rows={block.table.rows}
          testid={`table-${block.key}`}
          renderCell={renderCell}
        />
      ) : null}
      {block.chart ? <Bars chart={block.chart} /> : null}
      {(block.notes ?? []).map((n, i) => (
        <p class="note" key={i}>
          <ModelText text={n} />
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
