import { rawAspects } from '../../api/entity-rest.js'
import { stableJson } from '../../lib/line-diff.js'
import { useApi } from '../../lib/use-api.js'

/** Every latest aspect of the entity as the API stores it, one collapsible JSON block each. */
export function RawAspects({ urn }: { urn: string }) {
  const loaded = useApi(`raw:${urn}`, () => rawAspects(urn))
  if (loaded.error) return <p className="error">{loaded.error.message}</p>
  if (!loaded.data) return <p className="muted">Loading…</p>
  const names = Object.keys(loaded.data).sort()
  return (
    <div className="raw-aspects" data-testid="raw-aspects">
      {names.map((name) => (
        <details key={name}>
          <summary>{name}</summary>
          <pre>{stableJson(loaded.data?.[name])}</pre>
        </details>
      ))}
    </div>
  )
}
