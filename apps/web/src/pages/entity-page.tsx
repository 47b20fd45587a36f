import { useState } from 'react'
import { graphql } from '../api/client.js'
import { ENTITY } from '../api/queries.js'
import type { EntityDetail } from '../api/types.js'
import { Link } from '../components/link.js'
import { SchemaTable } from '../components/schema-table.js'
import { Tags } from '../components/tags.js'
import { VersionHistory } from '../components/version-history.js'
import { descriptionOf, displayName, platformName, shortUrn, typeLabel } from '../lib/display.js'
import { routes } from '../lib/router.js'
import { useApi } from '../lib/use-api.js'

const TABS = ['Schema', 'Properties', 'Versions'] as const
type Tab = (typeof TABS)[number]

/** One entity via `entity(urn)`: header, ownership and tags, then schema, properties and versions. */
export function EntityPage({ urn }: { urn: string }) {
  const { data, error, loading } = useApi(`entity:${urn}`, () =>
    graphql<{ entity: EntityDetail | null }>(ENTITY, { urn }),
  )
  const [tab, setTab] = useState<Tab>('Schema')
  if (error)
    return (
      <p role="alert" className="error">
        {error.message}
      </p>
    )
  if (loading && !data) return <p className="muted">Loading…</p>
  const e = data?.entity
  if (!e) return <p className="error">No entity {urn}.</p>
  const owners = e.ownership?.owners ?? []
  const custom = e.properties?.customProperties ?? []
  return (
    <article className="entity">
      <p className="muted">
        {typeLabel(e.type)}
        {platformName(e) ? ` · ${platformName(e)}` : ''}
      </p>
      <h1>{displayName(e)}</h1>
      <p className="urn">
        <code>{e.urn}</code> · <Link href={routes.lineage(e.urn)}>Lineage</Link>
      </p>
      {descriptionOf(e) && <p className="description">{descriptionOf(e)}</p>}
      <dl className="facts">
        <dt>Owners</dt>
        <dd>
          {owners.length === 0
            ? 'none'
            : owners.map((o) => (
                <span key={o.owner.urn} className="pill owner" title={o.type ?? ''}>
                  {o.owner.username ?? o.owner.name ?? shortUrn(o.owner.urn)}
                </span>
              ))}
        </dd>
        <dt>Tags and terms</dt>
        <dd>
          <Tags tags={e.globalTags?.tags} terms={e.glossaryTerms?.terms} />
          {!e.globalTags?.tags?.length && !e.glossaryTerms?.terms?.length && 'none'}
        </dd>
      </dl>
      <div className="tabs" role="tablist">
        {TABS.map((t) => (
          <button key={t} type="button" role="tab" aria-selected={tab === t} onClick={() => setTab(t)}>
            {t}
          </button>
        ))}
      </div>
      {tab === 'Schema' &&
        (e.schemaMetadata?.fields.length ? (
          <SchemaTable
            fields={e.schemaMetadata.fields}
            edits={e.editableSchemaMetadata?.editableSchemaFieldInfo ?? []}
          />
        ) : (
          <p className="muted">No schema.</p>
        ))}
      {tab === 'Properties' && (
        <table className="properties" aria-label="Properties">
          <tbody>
            {e.properties?.qualifiedName && (
              <tr>
                <th>qualifiedName</th>
                <td>{e.properties.qualifiedName}</td>
              </tr>
            )}
            {custom.map((p) => (
              <tr key={p.key}>
                <th>{p.key}</th>
                <td>{p.value}</td>
              </tr>
            ))}
            {custom.length === 0 && !e.properties?.qualifiedName && (
              <tr>
                <td className="muted">No properties.</td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      {tab === 'Versions' && <VersionHistory urn={e.urn} />}
    </article>
  )
}
