import type { Aggregation, Facet } from '../api/types.js'
import { shortUrn, typeLabel } from '../lib/display.js'

/** The facets shown beside the results, in this order. */
const FACET_FIELDS = ['_entityType', 'platform', 'tags'] as const

function label(field: string, a: Aggregation): string {
  if (field === '_entityType') return typeLabel(a.value)
  const e = a.entity
  return e?.properties?.displayName ?? e?.properties?.name ?? e?.name ?? shortUrn(a.value)
}

/** Facet values with their counts; a checked value narrows the search (values of one facet are OR-ed). */
export function Facets(props: {
  facets: Facet[]
  selected: Map<string, Set<string>>
  onToggle: (field: string, value: string) => void
}) {
  const shown = FACET_FIELDS.map((f) => props.facets.find((x) => x.field === f)).filter(
    (f): f is Facet => f !== undefined && f.aggregations.length > 0,
  )
  return (
    <aside className="facets" aria-label="Filters">
      {shown.map((facet) => (
        <fieldset key={facet.field}>
          <legend>{facet.displayName ?? facet.field}</legend>
          {facet.aggregations.slice(0, 15).map((a) => (
            <label key={a.value}>
              <input
                type="checkbox"
                checked={props.selected.get(facet.field)?.has(a.value) ?? false}
                onChange={() => props.onToggle(facet.field, a.value)}
              />
              <span>{label(facet.field, a)}</span>
              <span className="count">{a.count}</span>
            </label>
          ))}
        </fieldset>
      ))}
    </aside>
  )
}
