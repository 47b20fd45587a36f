import { fireEvent, render, screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../test/fake-api.js'
import { VersionHistory } from './version-history.js'

const URN = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)'

// SampleKafkaDataset's datasetProperties from bootstrap_mce.json (version 1), then edited
// (version 0, the latest); and its status, stored once.
const versions: Record<string, Record<string, unknown>[]> = {
  datasetProperties: [
    {
      'com.linkedin.dataset.DatasetProperties': {
        customProperties: { prop1: 'fakeprop', prop2: 'raichu' },
        description: 'Sample Kafka dataset',
        tags: [],
      },
    },
    {
      'com.linkedin.dataset.DatasetProperties': {
        customProperties: { prop1: 'fakeprop', prop2: 'pikachu' },
        tags: [],
      },
    },
  ],
  status: [{ 'com.linkedin.common.Status': { removed: false } }],
}

/** The catalog's `/openapi/v3/entity` read and `GET /aspects/<urn>?aspect=X&version=N`. */
function serveVersions() {
  return fakeApi((path) => {
    if (path === `/openapi/v3/entity/dataset/${URN}`)
      return { urn: URN, status: { value: { removed: false } }, datasetProperties: { value: {} } }
    const m = /^\/aspects\/(.+)\?aspect=(\w+)&version=(\d+)$/.exec(path)
    if (m?.[1] !== URN) return undefined
    const aspect = versions[m[2] ?? '']?.[Number(m[3])]
    return aspect && { version: Number(m[3]), aspect }
  })
}

const diffLines = () =>
  [...document.querySelectorAll('pre.diff > div')].map((d) => `${d.className} ${d.textContent?.trim()}`)

describe('VersionHistory', () => {
  it('opens on the properties aspect and diffs its previous version against the latest, line by line', async () => {
    const calls = serveVersions()
    render(<VersionHistory urn={URN} />)
    expect(await screen.findByText('version 1 → latest (0): 3 changed lines')).toBeTruthy()
    expect((screen.getByRole('combobox', { name: 'Aspect' }) as HTMLSelectElement).value).toBe(
      'datasetProperties',
    )
    expect(
      within(screen.getByRole('combobox', { name: 'Aspect' }))
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['datasetProperties', 'status'])
    expect(screen.getByText('2 versions')).toBeTruthy()
    expect(diffLines()).toEqual([
      'diff-same {',
      'diff-same "customProperties": {',
      'diff-same "prop1": "fakeprop",',
      'diff-removed -     "prop2": "pikachu"',
      'diff-added +     "prop2": "raichu"',
      'diff-same },',
      'diff-added +   "description": "Sample Kafka dataset",',
      'diff-same "tags": []',
      'diff-same }',
    ])
    // Versions are probed until the first missing one.
    expect(calls.map((c) => c.path)).toContain(`/aspects/${URN}?aspect=datasetProperties&version=2`)
  })

  it('diffs any two versions chosen in the selectors', async () => {
    serveVersions()
    render(<VersionHistory urn={URN} />)
    await screen.findByText('version 1 → latest (0): 3 changed lines')
    const newer = screen.getByRole('combobox', { name: 'Newer version' })
    expect(
      within(newer)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['latest (0)', 'version 1'])
    fireEvent.change(newer, { target: { value: '1' } })
    await waitFor(() => expect(diffLines().every((l) => l.startsWith('diff-same'))).toBe(true))
    expect(screen.getByText('version 1 → version 1: 0 changed lines')).toBeTruthy()
  })

  it('says there is nothing to compare for an aspect stored once', async () => {
    serveVersions()
    render(<VersionHistory urn={URN} />)
    await screen.findByText('version 1 → latest (0): 3 changed lines')
    fireEvent.change(screen.getByRole('combobox', { name: 'Aspect' }), { target: { value: 'status' } })
    // While the new aspect's versions load, the previous pair of versions may flash by: wait for the last.
    await waitFor(() =>
      expect(diffLines()).toEqual(['diff-same {', 'diff-same "removed": false', 'diff-same }']),
    )
    expect(screen.getByText('Only one version: nothing to compare yet.')).toBeTruthy()
    expect(screen.getByText('1 version')).toBeTruthy()
    expect(screen.queryByRole('combobox', { name: 'Older version' })).toBeNull()
  })

  it("shows the catalog's message when the aspects cannot be read", async () => {
    fakeApi(() => new Response(JSON.stringify({ message: 'Metadata service unavailable' }), { status: 503 }))
    render(<VersionHistory urn={URN} />)
    expect(await screen.findByText('Metadata service unavailable')).toBeTruthy()
  })
})
