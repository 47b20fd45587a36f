import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { RelationshipsPanel } from './relationships-panel.js'

// The lineage of DataHub's bootstrap_mce.json around logging_events: it reads SampleHiveDataset;
// fct_users_created, fct_users_deleted and an S3 backup read it.
const hive = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,${name},PROD)`
const URN = hive('logging_events')
const outgoing = [
  { type: 'DownstreamOf', entity: hive('SampleHiveDataset') },
  { type: 'OwnedBy', entity: 'urn:li:corpuser:jdoe' },
  { type: 'TaggedWith', entity: 'urn:li:tag:Legacy' },
]
const incoming = [
  { type: 'DownstreamOf', entity: hive('fct_users_created') },
  { type: 'DownstreamOf', entity: hive('fct_users_deleted') },
  {
    type: 'DownstreamOf',
    entity: 'urn:li:dataset:(urn:li:dataPlatform:s3,project/root/events/logging_events_bckp,PROD)',
  },
]

function serve(answer: { outgoing: object[]; incoming: object[]; incomingTotal?: number }) {
  return fakeApi((path) => {
    const direction = /^\/relationships\?direction=(\w+)&urn=(.+?)&types=List\((.+)\)&count=100$/.exec(path)
    if (direction?.[2] !== URN) return undefined
    const list = direction[1] === 'OUTGOING' ? answer.outgoing : answer.incoming
    const total = direction[1] === 'INCOMING' ? (answer.incomingTotal ?? list.length) : list.length
    return { start: 0, count: list.length, total, relationships: list }
  })
}

const section = (name: string) => screen.findByRole('region', { name: `${name} relationships` })

describe('RelationshipsPanel', () => {
  it('groups the edges of each direction by relationship name, each entity a link to its page', async () => {
    const calls = serve({ outgoing, incoming })
    render(<RelationshipsPanel urn={URN} />)
    const out = await section('Outgoing')
    expect(within(out).getByRole('heading').textContent).toBe('Outgoing (this entity → other) · 3')
    expect([...out.querySelectorAll('dt')].map((t) => t.textContent)).toEqual([
      'DownstreamOf',
      'OwnedBy',
      'TaggedWith',
    ])
    const upstream = within(out).getByRole('link', { name: 'SampleHiveDataset' })
    expect(upstream.getAttribute('href')).toBe(`/entity?urn=${encodeURIComponent(hive('SampleHiveDataset'))}`)
    expect(upstream.closest('li')?.textContent).toBe('SampleHiveDataset dataset')
    expect(within(out).getByRole('link', { name: 'jdoe' }).closest('li')?.textContent).toBe('jdoe corpuser')

    const into = await section('Incoming')
    expect(within(into).getByRole('heading').textContent).toBe('Incoming (other → this entity) · 3')
    expect(
      within(into)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['fct_users_created', 'fct_users_deleted', 'project/root/events/logging_events_bckp'])
    // Each direction asks for the relationship names the model gives a dataset.
    const asked = calls.map((c) => c.path)
    expect(
      asked.some((p) => p.startsWith('/relationships?direction=OUTGOING') && p.includes('DownstreamOf')),
    ).toBe(true)
    expect(asked.some((p) => p.startsWith('/relationships?direction=INCOMING'))).toBe(true)
  })

  it('says "None." for a direction without edges, and when a page holds only part of them', async () => {
    serve({ outgoing: [], incoming, incomingTotal: 150 })
    render(<RelationshipsPanel urn={URN} />)
    const out = await section('Outgoing')
    expect(within(out).getByText('None.')).toBeTruthy()
    expect(within(out).queryAllByRole('link')).toHaveLength(0)
    const into = await section('Incoming')
    expect(within(into).queryByText('None.')).toBeNull()
    expect(within(into).getByText('First 100 of 150.')).toBeTruthy()
  })

  it("shows the catalog's message when a read fails", async () => {
    fakeApi(() => new Response(JSON.stringify({ message: 'Graph store unavailable' }), { status: 503 }))
    render(<RelationshipsPanel urn={URN} />)
    expect(await screen.findByText('Graph store unavailable')).toBeTruthy()
  })
})
