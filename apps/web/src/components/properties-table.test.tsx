import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { PropertiesTable } from './properties-table.js'

const rows = () =>
  within(screen.getByRole('table', { name: 'Properties' }))
    .getAllByRole('row')
    .map((r) => [...r.children].map((c) => c.textContent))

describe('PropertiesTable', () => {
  it('lists the qualified name, then the custom properties as key and value', () => {
    // SampleKafkaDataset's datasetProperties (bootstrap_mce.json), as GraphQL maps them.
    render(
      <PropertiesTable
        properties={{
          qualifiedName: 'prod.kafka.SampleKafkaDataset',
          customProperties: [
            { key: 'prop1', value: 'fakeprop' },
            { key: 'prop2', value: 'pikachu' },
          ],
        }}
      />,
    )
    expect(rows()).toEqual([
      ['qualifiedName', 'prod.kafka.SampleKafkaDataset'],
      ['prop1', 'fakeprop'],
      ['prop2', 'pikachu'],
    ])
    expect(screen.getAllByRole('rowheader').map((h) => h.textContent)).toEqual([
      'qualifiedName',
      'prop1',
      'prop2',
    ])
  })

  it('says so when there are no properties', () => {
    render(<PropertiesTable properties={{ customProperties: [] }} />)
    expect(rows()).toEqual([['No properties.']])
  })

  it('shows the qualified name alone when there are no custom properties', () => {
    render(<PropertiesTable properties={{ qualifiedName: 'db.table' }} />)
    expect(rows()).toEqual([['qualifiedName', 'db.table']])
  })
})
