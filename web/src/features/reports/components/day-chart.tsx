import { Group } from '@visx/group';
import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import type { ReportDayFigures } from '#contracts/reports.ts';
import { formatCount, formatShortDate } from '#web/features/reports/report-format.ts';
import { useWidth } from './use-width.ts';

const height = 220;
const margin = { top: 12, right: 8, bottom: 28, left: 36 };
const series = [
  { key: 'opened', label: 'Abertas', className: 'fill-brand' },
  { key: 'resolved', label: 'Resolvidas', className: 'fill-fg-subtle' },
] as const;

/**
 * 'Por dia': conversations opened and resolved each day, as grouped bars (visx: ADR-0235), coloured by the theme's tokens so both themes read. Drawn for the eye only: the
 * same numbers are the table below it.
 */
export function DayChart({ days }: { days: ReportDayFigures[] }) {
  const { ref, width } = useWidth<HTMLDivElement>(640);
  const inner = { width: Math.max(0, width - margin.left - margin.right), height: height - margin.top - margin.bottom };
  const x = scaleBand({ domain: days.map((d) => d.date), range: [0, inner.width], padding: 0.2 });
  const group = scaleBand({ domain: series.map((s) => s.key), range: [0, x.bandwidth()], padding: 0.1 });
  const max = Math.max(1, ...days.flatMap((d) => [d.opened, d.resolved]));
  const y = scaleLinear({ domain: [0, max], range: [inner.height, 0], nice: true });
  const ticks = y.ticks(Math.min(4, max)).filter(Number.isInteger);
  // At most about one date label per 48 px.
  const every = Math.max(1, Math.ceil(days.length / Math.max(1, Math.floor(inner.width / 48))));
  return (
    <div className="space-y-2">
      <ul className="flex flex-wrap gap-4 text-xs text-fg-muted" aria-hidden="true">
        {series.map((s) => (
          <li key={s.key} className="flex items-center gap-1.5">
            <svg width="10" height="10" className={s.className} aria-hidden="true">
              <rect width="10" height="10" rx="2" />
            </svg>
            {s.label}
          </li>
        ))}
      </ul>
      <div ref={ref} className="w-full">
        <svg width={width} height={height} aria-hidden="true" className="block overflow-visible" data-testid="report-chart-days">
          <Group left={margin.left} top={margin.top}>
            {ticks.map((tick) => (
              <g key={tick} transform={`translate(0, ${y(tick)})`}>
                <line x1={0} x2={inner.width} className="stroke-border" />
                <text x={-6} dy="0.32em" textAnchor="end" className="fill-fg-muted text-[10px] tabular-nums">
                  {formatCount(tick)}
                </text>
              </g>
            ))}
            {days.map((day, i) => (
              <Group key={day.date} left={x(day.date) ?? 0}>
                {series.map((s) => {
                  const value = day[s.key];
                  return (
                    <Bar
                      key={s.key}
                      x={group(s.key) ?? 0}
                      y={y(value)}
                      width={group.bandwidth()}
                      height={inner.height - y(value)}
                      rx={1.5}
                      className={s.className}
                    />
                  );
                })}
                {i % every === 0 ? (
                  <text x={x.bandwidth() / 2} y={inner.height + 16} textAnchor="middle" className="fill-fg-muted text-[10px] tabular-nums">
                    {formatShortDate(day.date)}
                  </text>
                ) : null}
              </Group>
            ))}
          </Group>
        </svg>
      </div>
    </div>
  );
}
