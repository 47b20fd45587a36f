import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { fakeApi } from '../../test/fake-api.js'
import { RawAspects } from './raw-aspects.js'

const URN = 'urn:li:dataset:(urn:li:dataPlatform:kafka,SampleKafkaDataset,PROD)'

// The OpenAPI v3 read of SampleKafkaDataset after ingesting bootstrap_mce.json (a few aspects).
const entity = {
  urn: URN,
  status: { value: { removed: false } },
  ownership: {
    value: {
      owners: [
        { owner: 'urn:li:corpuser:jdoe', type: 'DATAOWNER' },
        { owner: 'urn:li:corpuser:datahub', type: 'DATAOWNER' },
      ],
      lastModified: { time: 1747341257143, actor: 'urn:li:corpuser:jdoe' },
    },
  },
  datasetProperties: { value: { tags: [], customProperties: { prop2: 'pikachu', prop1: 'fakeprop' } } },
}

describe('RawAspects', () => {
  it('lists every aspect by name, sorted, each a collapsed block of its JSON with sorted keys', async () => {
    const calls = fakeApi((path) => (path === `/openapi/v3/entity/dataset/${URN}` ? entity : undefined))
    render(<RawAspects urn={URN} />)
    await screen.findByTestId('raw-aspects')
    const blocks = [...document.querySelectorAll('details')]
    expect(blocks.map((d) => d.querySelector('summary')?.textContent)).toEqual([
      'datasetProperties',
      'ownership',
      'status',
    ])
    expect(blocks.every((d) => !d.open)).toBe(true)
    expect(blocks[0]?.querySelector('pre')?.textContent).toBe(
      JSON.stringify(
        { value: { customProperties: { prop1: 'fakeprop', prop2: 'pikachu' }, tags: [] } },
        null,
        2,
      ),
    )
    expect(blocks[1]?.querySelector('pre')?.textContent).toContain('"owner": "urn:li:corpuser:datahub"')
    fireEvent.click(screen.getByText('status'))
    expect(screen.getByText('status').closest('details')?.querySelector('pre')?.textContent).toContain(
      '"removed": false',
    )
    expect(calls).toHaveLength(1)
  })

  it("shows the catalog's message when the read is refused", async () => {
    fakeApi(() => new Response(JSON.stringify({ message: 'Invalid URN' }), { status: 400 }))
    render(<RawAspects urn={URN} />)
    expect(screen.getByText('Loading…')).toBeTruthy()
    expect(await screen.findByText('Invalid URN')).toBeTruthy()
    expect(screen.queryByTestId('raw-aspects')).toBeNull()
  })
})
