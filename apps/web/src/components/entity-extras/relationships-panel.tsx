import { RELATED_PAGE, type Related, relationships } from '../../api/entity-rest.js'
import { shortUrn } from '../../lib/display.js'
import { routes } from '../../lib/router.js'
import { useApi } from '../../lib/use-api.js'
import { Link } from '../link.js'

/** The entity's edges both ways (`/relationships`), grouped by relationship name. */
export function RelationshipsPanel({ urn }: { urn: string }) {
  const loaded = useApi(`relationships:${urn}`, async () => {
    const [outgoing, incoming] = await Promise.all([
      relationships(urn, 'OUTGOING'),
      relationships(urn, 'INCOMING'),
    ])
    return { outgoing, incoming }
  })
  if (loaded.error) return <p className="error">{loaded.error.message}</p>
  if (!loaded.data) return <p className="muted">Loading…</p>
  return (
    <div className="relationships">
      <Direction title="Outgoing" hint="this entity → other" page={loaded.data.outgoing} />
      <Direction title="Incoming" hint="other → this entity" page={loaded.data.incoming} />
    </div>
  )
}

function Direction({
  title,
  hint,
  page,
}: {
  title: string
  hint: string
  page: { total: number; relationships: Related[] }
}) {
  const groups = new Map<string, string[]>()
  for (const r of page.relationships) groups.set(r.type, [...(groups.get(r.type) ?? []), r.entity])
  return (
    <section aria-label={`${title} relationships`} data-testid={`relationships-${title.toLowerCase()}`}>
      <h3>
        {title}{' '}
        <span className="muted">
          ({hint}) · {page.total}
        </span>
      </h3>
      {page.total === 0 && <p className="muted">None.</p>}
      <dl className="facts">
        {[...groups].map(([type, urns]) => (
          <div key={type}>
            <dt>{type}</dt>
            <dd>
              <ul className="related">
                {urns.map((u) => (
                  <li key={u}>
                    <Link href={routes.entity(u)}>{shortUrn(u)}</Link>{' '}
                    <span className="muted">{u.split(':')[2]}</span>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        ))}
      </dl>
      {page.total > RELATED_PAGE && (
        <p className="muted">
          First {RELATED_PAGE} of {page.total}.
        </p>
      )}
    </section>
  )
}
