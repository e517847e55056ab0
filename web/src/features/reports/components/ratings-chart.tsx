import { scaleBand, scaleLinear } from '@visx/scale';
import { Bar } from '@visx/shape';
import { formatCount } from '#web/features/reports/report-format.ts';
import { useWidth } from './use-width.ts';

const rowHeight = 26;
const margin = { left: 56, right: 40 };

/**
 * The ratings' distribution: one horizontal bar per score, 5 on top (visx: ADR-0235). For the eye only: the table below it has the same numbers.
 */
export function RatingsChart({ distribution }: { distribution: readonly number[] }) {
  const { ref, width } = useWidth<HTMLDivElement>(480);
  const scores = [5, 4, 3, 2, 1];
  const height = rowHeight * scores.length;
  const y = scaleBand({ domain: scores, range: [0, height], padding: 0.25 });
  const x = scaleLinear({ domain: [0, Math.max(1, ...distribution)], range: [0, Math.max(0, width - margin.left - margin.right)] });
  return (
    <div ref={ref} className="w-full">
      <svg width={width} height={height} aria-hidden="true" className="block" data-testid="report-chart-ratings">
        {scores.map((score) => {
          const count = distribution[score - 1] ?? 0;
          const top = y(score) ?? 0;
          return (
            <g key={score}>
              <text x={0} y={top + y.bandwidth() / 2} dy="0.32em" className="fill-fg-muted text-xs">
                {`${score} ${score === 1 ? 'estrela' : 'estrelas'}`}
              </text>
              <rect x={margin.left} y={top} width={x.range()[1]} height={y.bandwidth()} rx={3} className="fill-surface-2" />
              <Bar x={margin.left} y={top} width={x(count)} height={y.bandwidth()} rx={3} className="fill-brand" />
              <text x={margin.left + x(count) + 6} y={top + y.bandwidth() / 2} dy="0.32em" className="fill-fg text-xs tabular-nums">
                {formatCount(count)}
              </text>
            </g>
          );
        })}
      </svg>
    </div>
  );
}
