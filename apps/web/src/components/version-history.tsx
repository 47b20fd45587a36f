import { useEffect, useState } from 'react'
import { aspectNames, aspectVersion, aspectVersions } from '../api/versions.js'
import { lineDiff, stableJson } from '../lib/line-diff.js'
import { useApi } from '../lib/use-api.js'

const label = (v: number) => (v === 0 ? 'latest (0)' : `version ${v}`)

/** Every aspect's stored versions, and a line diff between any two of them. */
export function VersionHistory({ urn }: { urn: string }) {
  const entityType = urn.split(':')[2] ?? ''
  const names = useApi(`aspects:${urn}`, () => aspectNames(urn, entityType))
  const [aspect, setAspect] = useState<string>('')
  useEffect(() => {
    const first = names.data?.find((n) => n.endsWith('Properties')) ?? names.data?.[0]
    setAspect((a) => (a && names.data?.includes(a) ? a : (first ?? '')))
  }, [names.data])
  const versions = useApi(`versions:${urn}:${aspect}`, () =>
    aspect ? aspectVersions(urn, aspect) : Promise.resolve([]),
  )
  const [pair, setPair] = useState<[number, number]>([1, 0])
  useEffect(() => {
    const list = versions.data ?? []
    setPair([list.length > 1 ? 1 : 0, 0])
  }, [versions.data])
  const diff = useApi(`diff:${urn}:${aspect}:${pair.join(',')}:${versions.data?.length ?? 0}`, async () => {
    if (!aspect || !versions.data?.length) return null
    const [older, newer] = await Promise.all([
      aspectVersion(urn, aspect, pair[0]),
      aspectVersion(urn, aspect, pair[1]),
    ])
    return lineDiff(stableJson(older), stableJson(newer))
  })
  if (names.error) return <p className="error">{names.error.message}</p>
  const list = versions.data ?? []
  const changes = diff.data?.filter((d) => d.kind !== 'same').length ?? 0
  return (
    <section className="versions" aria-label="Version history">
      <div className="version-controls">
        <label>
          Aspect{' '}
          <select value={aspect} onChange={(e) => setAspect(e.target.value)} aria-label="Aspect">
            {(names.data ?? []).map((n) => (
              <option key={n}>{n}</option>
            ))}
          </select>
        </label>
        <span className="muted">
          {list.length} version{list.length === 1 ? '' : 's'}
        </span>
        {list.length > 1 && (
          <>
            <label>
              From{' '}
              <select
                aria-label="Older version"
                value={pair[0]}
                onChange={(e) => setPair([Number(e.target.value), pair[1]])}
              >
                {list.map((v) => (
                  <option key={v} value={v}>
                    {label(v)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              To{' '}
              <select
                aria-label="Newer version"
                value={pair[1]}
                onChange={(e) => setPair([pair[0], Number(e.target.value)])}
              >
                {list.map((v) => (
                  <option key={v} value={v}>
                    {label(v)}
                  </option>
                ))}
              </select>
            </label>
          </>
        )}
      </div>
      {diff.error && <p className="error">{diff.error.message}</p>}
      {diff.data && (
        <>
          <p className="muted" data-testid="diff-summary">
            {list.length > 1
              ? `${label(pair[0])} → ${label(pair[1])}: ${changes} changed line${changes === 1 ? '' : 's'}`
              : 'Only one version: nothing to compare yet.'}
          </p>
          <pre className="diff">
            {diff.data.map((d, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines of one rendered diff, never reordered
              <div key={i} className={`diff-${d.kind}`}>
                {d.kind === 'added' ? '+ ' : d.kind === 'removed' ? '- ' : '  '}
                {d.text}
              </div>
            ))}
          </pre>
        </>
      )}
    </section>
  )
}
