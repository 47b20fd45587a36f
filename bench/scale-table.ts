/** The scale benchmark's result table: one row per figure, beside its same-run baseline. */
import { fmt } from './lib.js'

/** One figure of the table. */
export interface Row {
  readonly figure: string
  readonly result: string
  readonly baseline: string
  /** The figure over its baseline, as the target reads it; undefined when there is none. */
  readonly ratio: number | undefined
  readonly target: string
  /** Whether the target is met; undefined when the figure has no target. */
  readonly met: boolean | undefined
}

const verdict = (met: boolean | undefined) => (met === undefined ? '—' : met ? 'met' : 'NOT met')

/** The rows as an aligned Markdown table (also readable in a terminal). */
export function renderTable(rows: readonly Row[]): string[] {
  const header = ['figure', 'result', 'baseline (same run)', 'ratio', 'target', 'met']
  const cells = rows.map((r) => [
    r.figure,
    r.result,
    r.baseline,
    r.ratio === undefined ? '—' : `${fmt(r.ratio, 2)}×`,
    r.target,
    verdict(r.met),
  ])
  const widths = header.map((h, c) => Math.max(h.length, ...cells.map((row) => (row[c] as string).length)))
  const line = (row: readonly string[]) =>
    `| ${row.map((cell, c) => cell.padEnd(widths[c] as number)).join(' | ')} |`
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)]
}

/** `p50 a / p95 b ms, c ms CPU` of a timing. */
export const latency = (t: { p50: number; p95: number; cpuMs?: number }): string =>
  `p50 ${fmt(t.p50, 1)} / p95 ${fmt(t.p95, 1)} ms${t.cpuMs === undefined ? '' : `, CPU ${fmt(t.cpuMs * 1000)} µs`}`
