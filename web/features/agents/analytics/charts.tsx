// Hand-rolled SVG charts: grouped bars and lines over shared x labels. Each chart carries a text
// summary for screen readers; the numbers are also in the page's tables.

export interface Series {
  key: string;
  label: string;
  color: string;
}

export interface Row {
  label: string;
  values: Record<string, number>;
}

/** Whole numbers as such, fractions (half of a max of 1) with one decimal. */
const tick = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));

const W = 640;
const H = 220;
const PAD = { top: 12, right: 12, bottom: 28, left: 44 };

function niceMax(v: number): number {
  if (v <= 0) return 1;
  // Small counts get an even top so the middle gridline is a whole number too.
  if (v <= 10) return Math.ceil(v / 2) * 2;
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function Axes({ max, format, labels, every }: { max: number; format(v: number): string; labels: string[]; every: number }) {
  const plotH = H - PAD.top - PAD.bottom;
  const plotW = W - PAD.left - PAD.right;
  const step = plotW / Math.max(1, labels.length);
  return (
    <g>
      {[0, 0.5, 1].map((f) => {
        const y = PAD.top + plotH * (1 - f);
        return (
          <g key={f}>
            <line className="ag-grid-line" x1={PAD.left} x2={W - PAD.right} y1={y} y2={y} />
            <text x={PAD.left - 6} y={y + 4} textAnchor="end">
              {format(max * f)}
            </text>
          </g>
        );
      })}
      <line className="ag-axis" x1={PAD.left} x2={W - PAD.right} y1={H - PAD.bottom} y2={H - PAD.bottom} />
      {labels.map((l, i) =>
        i % every === 0 ? (
          <text key={`${l}-${i}`} x={PAD.left + step * i + step / 2} y={H - 8} textAnchor="middle">
            {l}
          </text>
        ) : null,
      )}
    </g>
  );
}

export function BarChart({
  rows,
  series,
  title,
  format = tick,
  maxLabels = 12,
}: {
  rows: Row[];
  series: Series[];
  title: string;
  format?: (v: number) => string;
  maxLabels?: number;
}) {
  const max = niceMax(Math.max(0, ...rows.flatMap((r) => series.map((s) => r.values[s.key] ?? 0))));
  const plotH = H - PAD.top - PAD.bottom;
  const plotW = W - PAD.left - PAD.right;
  const step = plotW / Math.max(1, rows.length);
  const barW = Math.max(1, (step * 0.8) / series.length);
  const every = Math.max(1, Math.ceil(rows.length / maxLabels));
  return (
    <svg className="ag-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title}>
      <Axes max={max} format={format} labels={rows.map((r) => r.label)} every={every} />
      {rows.map((r, i) =>
        series.map((s, j) => {
          const v = r.values[s.key] ?? 0;
          const h = (v / max) * plotH;
          return (
            <rect
              key={`${i}-${s.key}`}
              x={PAD.left + step * i + step * 0.1 + barW * j}
              y={PAD.top + plotH - h}
              width={barW}
              height={h}
              rx={1.5}
              fill={s.color}
            >
              <title>{`${r.label} · ${s.label}: ${format(v)}`}</title>
            </rect>
          );
        }),
      )}
    </svg>
  );
}

export function LineChart({
  rows,
  series,
  title,
  max: fixedMax,
  format = (v) => String(Math.round(v)),
  maxLabels = 12,
}: {
  rows: Row[];
  series: Series[];
  title: string;
  max?: number;
  format?: (v: number) => string;
  maxLabels?: number;
}) {
  const max = fixedMax ?? niceMax(Math.max(0, ...rows.flatMap((r) => series.map((s) => r.values[s.key] ?? 0))));
  const plotH = H - PAD.top - PAD.bottom;
  const plotW = W - PAD.left - PAD.right;
  const step = plotW / Math.max(1, rows.length);
  const every = Math.max(1, Math.ceil(rows.length / maxLabels));
  const x = (i: number) => PAD.left + step * i + step / 2;
  const y = (v: number) => PAD.top + plotH * (1 - Math.min(1, v / max));
  return (
    <svg className="ag-chart" viewBox={`0 0 ${W} ${H}`} role="img" aria-label={title}>
      <Axes max={max} format={format} labels={rows.map((r) => r.label)} every={every} />
      {series.map((s) => (
        <g key={s.key}>
          <polyline
            fill="none"
            stroke={s.color}
            strokeWidth={2}
            points={rows.map((r, i) => `${x(i)},${y(r.values[s.key] ?? 0)}`).join(" ")}
          />
          {rows.length <= 60 &&
            rows.map((r, i) => (
              <circle key={i} cx={x(i)} cy={y(r.values[s.key] ?? 0)} r={2.5} fill={s.color}>
                <title>{`${r.label} · ${s.label}: ${format(r.values[s.key] ?? 0)}`}</title>
              </circle>
            ))}
        </g>
      ))}
    </svg>
  );
}

export function Legend({ series }: { series: Series[] }) {
  return (
    <div className="ag-legend" aria-hidden>
      {series.map((s) => (
        <span key={s.key} style={{ ["--legend" as string]: s.color }}>
          {s.label}
        </span>
      ))}
    </div>
  );
}
