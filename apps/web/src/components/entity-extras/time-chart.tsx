import { type Point, scalePoints } from '../../lib/timeseries.js'

const W = 360
const H = 120
const PAD = { left: 56, right: 12, top: 10, bottom: 24 }

const day = (t: number) => new Date(t).toISOString().slice(0, 10)
const num = (v: number) => v.toLocaleString('en-US')
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 })

/**
 * A small hand-written SVG chart of one series over time: a line (`kind="line"`) or bars, the
 * value range on the left, the first and last day below, each point titled with its value.
 */
export function TimeChart({
  title,
  points,
  kind,
}: {
  title: string
  points: readonly Point[]
  kind: 'line' | 'bars'
}) {
  const scaled = scalePoints(points, W - PAD.left - PAD.right, H - PAD.top - PAD.bottom).map((p) => ({
    x: p.x + PAD.left,
    y: p.y + PAD.top,
  }))
  const values = points.map((p) => p.v)
  const bottom = H - PAD.bottom
  const barWidth = Math.max(2, Math.min(24, (W - PAD.left - PAD.right) / Math.max(points.length, 1) - 2))
  return (
    <figure className="chart" data-testid={`chart-${title}`}>
      <figcaption>
        {title} <span className="muted">({points.length} points)</span>
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} width={W} height={H} role="img" aria-label={`${title} over time`}>
        <line x1={PAD.left} y1={bottom} x2={W - PAD.right} y2={bottom} className="axis" />
        <line x1={PAD.left} y1={PAD.top} x2={PAD.left} y2={bottom} className="axis" />
        <text x={PAD.left - 4} y={PAD.top + 8} textAnchor="end">
          {compact.format(Math.max(...values))}
        </text>
        <text x={PAD.left - 4} y={bottom} textAnchor="end">
          {compact.format(Math.min(0, ...values))}
        </text>
        {points.length > 0 && (
          <>
            <text x={PAD.left} y={H - 6}>
              {day(points[0]?.t ?? 0)}
            </text>
            <text x={W - PAD.right} y={H - 6} textAnchor="end">
              {day(points.at(-1)?.t ?? 0)}
            </text>
          </>
        )}
        {kind === 'line' && (
          <polyline className="series" points={scaled.map((p) => `${p.x},${p.y}`).join(' ')} />
        )}
        {scaled.map((p, i) => {
          const label = `${day(points[i]?.t ?? 0)}: ${num(points[i]?.v ?? 0)}`
          return kind === 'line' ? (
            <circle key={points[i]?.t ?? i} cx={p.x} cy={p.y} r={3} className="point">
              <title>{label}</title>
            </circle>
          ) : (
            <rect
              key={points[i]?.t ?? i}
              x={p.x - barWidth / 2}
              y={Math.min(p.y, bottom - 1)}
              width={barWidth}
              height={Math.max(1, bottom - p.y)}
              className="bar"
            >
              <title>{label}</title>
            </rect>
          )
        })}
      </svg>
    </figure>
  )
}
