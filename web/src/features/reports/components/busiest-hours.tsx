import { formatCount, weekdayShort } from '#web/features/reports/report-format.ts';
import { scrollRegion } from './report-table.tsx';

const hours = Array.from({ length: 24 }, (_, h) => h);

/**
 * Four shades from the theme's brand colour, each with a text colour readable on it in both themes
 * (the darkest takes the brand's own foreground).
 */
function shade(count: number, max: number): { backgroundColor: string; color: string } {
  if (count === 0 || max === 0) return { backgroundColor: 'var(--surface-2)', color: 'var(--fg-muted)' };
  const level = count / max;
  if (level > 0.75) return { backgroundColor: 'var(--brand)', color: 'var(--brand-fg)' };
  const percent = level > 0.5 ? 45 : level > 0.25 ? 30 : 15;
  return { backgroundColor: `color-mix(in srgb, var(--brand) ${percent}%, var(--surface))`, color: 'var(--fg)' };
}

/**
 * 'Horários de maior movimento': conversations started by weekday and hour, a heat map that is
 * itself a table (its numbers are in the cells, for screen readers too).
 */
export function BusiestHours({ grid }: { grid: number[][] }) {
  const max = Math.max(0, ...grid.flat());
  return (
    <div className="relative overflow-x-auto rounded-xl border border-border" {...scrollRegion('Horários de maior movimento')}>
      <table className="min-w-max border-separate border-spacing-0.5 p-1 text-xs" data-testid="report-table-hours">
        <caption className="sr-only">Conversas abertas por dia da semana e hora</caption>
        <thead>
          <tr>
            <th scope="col" className="px-1 text-left font-medium text-fg-muted">
              <span className="sr-only">Dia</span>
            </th>
            {hours.map((h) => (
              <th key={h} scope="col" className="w-7 px-0.5 text-center font-medium text-fg-muted tabular-nums">
                <span aria-hidden="true">{String(h).padStart(2, '0')}</span>
                <span className="sr-only">{`${h} h`}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {grid.map((row, weekday) => (
            <tr key={weekdayShort[weekday]}>
              <th scope="row" className="pr-2 text-left font-medium text-fg-muted">
                {weekdayShort[weekday]}
              </th>
              {row.map((count, h) => (
                <td key={hours[h]} className="h-7 w-7 rounded text-center tabular-nums" style={shade(count, max)}>
                  {count ? formatCount(count) : <span className="sr-only">0</span>}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
