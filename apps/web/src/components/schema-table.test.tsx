import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import type { SchemaField } from '../api/types.js'
import { SchemaTable } from './schema-table.js'

// SampleHdfsDataset's schemaMetadata and editableSchemaMetadata from DataHub's bootstrap_mce.json
// (test/fixtures/datahub), as the GraphQL API maps them (type enum, tags and terms resolved).
const fields: SchemaField[] = [
  {
    fieldPath: 'shipment_info',
    nullable: false,
    description: 'Shipment info description',
    type: 'STRUCT',
    nativeDataType: 'varchar(100)',
  },
  {
    fieldPath: 'shipment_info.date',
    nullable: false,
    description: 'Shipment info date description',
    type: 'DATE',
    nativeDataType: 'Date',
    glossaryTerms: {
      terms: [{ term: { urn: 'urn:li:glossaryTerm:CustomerAccount', name: 'CustomerAccount' } }],
    },
  },
  {
    fieldPath: 'shipment_info.geo_info.lat',
    nullable: true,
    description: 'Shipment info geo_info lat',
    type: 'NUMBER',
    nativeDataType: null,
    globalTags: { tags: [{ tag: { urn: 'urn:li:tag:NeedsDocumentation', name: 'NeedsDocumentation' } }] },
  },
]
const edits: SchemaField[] = [
  {
    fieldPath: 'shipment_info',
    description: 'Where and when a shipment goes',
    globalTags: { tags: [{ tag: { urn: 'urn:li:tag:Legacy', properties: { name: 'Legacy' } } }] },
  },
]

const rowOf = (fieldPath: string) => {
  const code = within(screen.getByRole('table', { name: 'Schema' })).getByText(fieldPath)
  const row = code.closest('tr')
  if (!row) throw new Error(`no row for ${fieldPath}`)
  return within(row).getAllByRole('cell')
}

describe('SchemaTable', () => {
  it('renders one row per field, nested paths in full, under the four column headers', () => {
    render(<SchemaTable fields={fields} edits={[]} />)
    const table = screen.getByRole('table', { name: 'Schema' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Field', 'Type', 'Description', 'Tags and terms'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((r) => within(r).getByText(/^shipment_info/).textContent)).toEqual([
      'shipment_info',
      'shipment_info.date',
      'shipment_info.geo_info.lat',
    ])
  })

  it('shows the native type, else the GraphQL type, and marks non-nullable fields', () => {
    render(<SchemaTable fields={fields} edits={[]} />)
    const [date, dateType] = rowOf('shipment_info.date')
    expect(date?.textContent).toBe('shipment_info.date not null')
    expect(dateType?.textContent).toBe('Date')
    const [lat, latType] = rowOf('shipment_info.geo_info.lat')
    expect(lat?.textContent).toBe('shipment_info.geo_info.lat')
    expect(latType?.textContent).toBe('NUMBER')
  })

  it("shows each field's tags and glossary terms as pills titled with their URN", () => {
    render(<SchemaTable fields={fields} edits={[]} />)
    const term = within(rowOf('shipment_info.date')[3] as HTMLElement).getByText('CustomerAccount')
    expect(term.title).toBe('urn:li:glossaryTerm:CustomerAccount')
    expect(term.className).toContain('term')
    const tag = within(rowOf('shipment_info.geo_info.lat')[3] as HTMLElement).getByText('NeedsDocumentation')
    expect(tag.title).toBe('urn:li:tag:NeedsDocumentation')
    expect(tag.className).toContain('tag')
    expect(rowOf('shipment_info')[3]?.textContent).toBe('')
  })

  it('prefers the edited description and adds the edited tags to the ingested ones', () => {
    render(<SchemaTable fields={fields} edits={edits} />)
    const [, , description, pills] = rowOf('shipment_info')
    expect(description?.textContent).toBe('Where and when a shipment goes')
    expect(screen.queryByText('Shipment info description')).toBeNull()
    expect(within(pills as HTMLElement).getByText('Legacy').title).toBe('urn:li:tag:Legacy')
    // Fields without edits keep their ingested description.
    expect(rowOf('shipment_info.date')[2]?.textContent).toBe('Shipment info date description')
  })
})
