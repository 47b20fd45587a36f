import type { SchemaField } from '../api/types.js'
import { Tags } from './tags.js'

/** The schema's fields, with the editable (UI-made) descriptions, tags and terms merged in. */
export function SchemaTable({ fields, edits }: { fields: SchemaField[]; edits: SchemaField[] }) {
  const edited = new Map(edits.map((e) => [e.fieldPath, e]))
  return (
    <table className="schema" aria-label="Schema">
      <thead>
        <tr>
          <th>Field</th>
          <th>Type</th>
          <th>Description</th>
          <th>Tags and terms</th>
        </tr>
      </thead>
      <tbody>
        {fields.map((f) => {
          const e = edited.get(f.fieldPath)
          return (
            <tr key={f.fieldPath}>
              <td>
                <code>{f.fieldPath}</code>
                {f.nullable ? '' : <span className="muted"> not null</span>}
              </td>
              <td>{f.nativeDataType ?? f.type}</td>
              <td>{e?.description ?? f.description}</td>
              <td>
                <Tags
                  tags={[...(f.globalTags?.tags ?? []), ...(e?.globalTags?.tags ?? [])]}
                  terms={[...(f.glossaryTerms?.terms ?? []), ...(e?.glossaryTerms?.terms ?? [])]}
                />
              </td>
            </tr>
          )
        })}
      </tbody>
    </table>
  )
}
