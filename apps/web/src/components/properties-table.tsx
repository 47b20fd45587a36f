import type { EntityDetail } from '../api/types.js'

/** The entity's qualified name and custom properties as a two-column table. */
export function PropertiesTable({ properties }: { properties: EntityDetail['properties'] }) {
  const custom = properties?.customProperties ?? []
  return (
    <table className="properties" aria-label="Properties">
      <tbody>
        {properties?.qualifiedName && (
          <tr>
            <th scope="row">qualifiedName</th>
            <td>{properties.qualifiedName}</td>
          </tr>
        )}
        {custom.map((p) => (
          <tr key={p.key}>
            <th scope="row">{p.key}</th>
            <td>{p.value}</td>
          </tr>
        ))}
        {custom.length === 0 && !properties?.qualifiedName && (
          <tr>
            <td className="muted">No properties.</td>
          </tr>
        )}
      </tbody>
    </table>
  )
}
