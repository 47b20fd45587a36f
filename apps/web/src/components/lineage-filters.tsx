import type { Hidden } from '../lib/lineage-filter.js'

type Counts = readonly (readonly [string, number])[]

/** Checkboxes showing or hiding the lineage graph's entities by type and by platform. */
export function LineageFilters({
  types,
  platforms,
  hidden,
  onChange,
}: {
  types: Counts
  platforms: Counts
  hidden: Hidden
  onChange: (hidden: Hidden) => void
}) {
  const toggle = (set: ReadonlySet<string>, value: string) => {
    const next = new Set(set)
    if (next.has(value)) next.delete(value)
    else next.add(value)
    return next
  }
  const group = (legend: string, counts: Counts, key: keyof Hidden) => (
    <fieldset className="lineage-filter">
      <legend>{legend}</legend>
      {counts.map(([value, count]) => (
        <label key={value}>
          <input
            type="checkbox"
            checked={!hidden[key].has(value)}
            onChange={() => onChange({ ...hidden, [key]: toggle(hidden[key], value) })}
          />{' '}
          {value} <span className="count">{count}</span>
        </label>
      ))}
    </fieldset>
  )
  return (
    <div className="lineage-filters" data-testid="lineage-filters">
      {group('Entity types', types, 'types')}
      {group('Platforms', platforms, 'platforms')}
    </div>
  )
}
