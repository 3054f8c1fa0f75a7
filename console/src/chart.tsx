/**
 * A bar chart in plain SVG: one bar per entry (a day, a listing), the value on hover (a `<title>`)
 * and in the table the chart summarises for screen readers. A chart library would add hundreds of
 * kilobytes to the console for charts of a few dozen bars.
 */
export interface Bar {
  label: string;
  value: number;
  /** The hover text (default `label: value`). */
  title?: string;
}

const WIDTH = 720;
const HEIGHT = 180;
const PAD = { top: 10, right: 8, bottom: 22, left: 48 };

/** A "nice" axis maximum (1, 2 or 5 × 10^n) at or above `max`. */
function niceMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((m) => m * p >= max) ?? 10) * p;
}

export function BarChart({ bars, label }: { bars: readonly Bar[]; label: string }) {
  const top = niceMax(Math.max(0, ...bars.map((b) => b.value)));
  const innerW = WIDTH - PAD.left - PAD.right;
  const innerH = HEIGHT - PAD.top - PAD.bottom;
  const slot = innerW / Math.max(1, bars.length);
  const barW = Math.max(1, slot * 0.75);
  const y = (v: number) => PAD.top + innerH - (v / top) * innerH;
  // About six labels along the axis, whatever the number of bars.
  const every = Math.max(1, Math.ceil(bars.length / 6));
  return (
    <svg className="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label}>
      {[0, 0.5, 1].map((f) => (
        <g key={f}>
          <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(top * f)} y2={y(top * f)} className="grid" />
          <text x={PAD.left - 6} y={y(top * f) + 4} textAnchor="end" className="axis">
            {(top * f).toLocaleString()}
          </text>
        </g>
      ))}
      {bars.map((b, i) => (
        <g key={`${i}:${b.label}`}>
          <rect
            x={PAD.left + i * slot + (slot - barW) / 2}
            y={y(b.value)}
            width={barW}
            height={Math.max(0, PAD.top + innerH - y(b.value))}
            className="bar"
            data-value={b.value}
          >
            <title>{b.title ?? `${b.label}: ${b.value.toLocaleString()}`}</title>
          </rect>
          {i % every === 0 ? (
            <text x={PAD.left + i * slot + slot / 2} y={HEIGHT - 6} textAnchor="middle" className="axis">
              {b.label}
            </text>
          ) : null}
        </g>
      ))}
    </svg>
  );
}
