import { lazy, Suspense, useState } from 'react'
import { graphql } from '../api/client.js'
import { ENTITY } from '../api/queries.js'
import type { EntityDetail } from '../api/types.js'
import { DescriptionEditor } from '../components/editing/description-editor.js'
import { LinkEditor } from '../components/editing/link-editor.js'
import { OwnerEditor } from '../components/editing/owner-editor.js'
import { TagEditor } from '../components/editing/tag-editor.js'
import { Link } from '../components/link.js'
import { PropertiesTable } from '../components/properties-table.js'
import { SchemaTable } from '../components/schema-table.js'
import { Tags } from '../components/tags.js'
import { VersionHistory } from '../components/version-history.js'
import { descriptionOf, displayName, platformName, typeLabel } from '../lib/display.js'
import { routes } from '../lib/router.js'
import { useApi } from '../lib/use-api.js'

// Relationships, time series and raw JSON load on demand, with the model facts they need.
const EntityExtras = lazy(() => import('../components/entity-extras/index.js'))

const TABS = ['Schema', 'Properties', 'Versions', 'Relationships', 'Time series', 'Raw JSON'] as const
type Tab = (typeof TABS)[number]

/** One entity via `entity(urn)`: header, editable description, owners, tags and links, then its tabs. */
export function EntityPage({ urn }: { urn: string }) {
  const [revision, setRevision] = useState(0)
  const { data, error, loading } = useApi(`entity:${urn}:${revision}`, () =>
    graphql<{ entity: EntityDetail | null }>(ENTITY, { urn }),
  )
  const [tab, setTab] = useState<Tab>('Schema')
  const reload = () => setRevision((r) => r + 1)
  if (error)
    return (
      <p role="alert" className="error">
        {error.message}
      </p>
    )
  if (loading && !data) return <p className="muted">Loading…</p>
  const e = data?.entity
  if (!e) return <p className="error">No entity {urn}.</p>
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
      <DescriptionEditor urn={e.urn} description={descriptionOf(e)} onSaved={reload} />
      <dl className="facts">
        <dt>Owners</dt>
        <dd>
          <OwnerEditor urn={e.urn} owners={e.ownership?.owners ?? []} onSaved={reload} />
        </dd>
        <dt>Tags</dt>
        <dd>
          <TagEditor urn={e.urn} tags={e.globalTags?.tags ?? []} onSaved={reload} />
        </dd>
        <dt>Terms</dt>
        <dd>{e.glossaryTerms?.terms?.length ? <Tags terms={e.glossaryTerms.terms} /> : 'none'}</dd>
        <dt>Links</dt>
        <dd>
          <LinkEditor urn={e.urn} links={e.institutionalMemory?.elements ?? []} onSaved={reload} />
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
      {tab === 'Properties' && <PropertiesTable properties={e.properties} />}
      {tab === 'Versions' && <VersionHistory urn={e.urn} />}
      {(tab === 'Relationships' || tab === 'Time series' || tab === 'Raw JSON') && (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <EntityExtras urn={e.urn} tab={tab} />
        </Suspense>
      )}
    </article>
  )
}
