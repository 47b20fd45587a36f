import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import profiles from '../../../../../test/fixtures/datahub/metadata-ingestion_examples_mce_files_demo-profiles.json'
import { fakeApi } from '../../test/fake-api.js'
import { TimeseriesPanel } from './timeseries-panel.js'

const URN = 'urn:li:dataset:(urn:li:dataPlatform:hdfs,SampleHdfsDataset,PROD)'

/** `getTimeseriesAspectValues` answering the demo profiles (as stored: a JSON string each), and operations. */
function serve(operations: object[]) {
  return fakeApi((path, body) => {
    if (path !== '/aspects?action=getTimeseriesAspectValues') return undefined
    const { aspect } = body as { aspect: string }
    const rows =
      aspect === 'datasetProfile'
        ? profiles.map((p) => p.aspect.value)
        : aspect === 'operation'
          ? operations.map((o) => JSON.stringify(o))
          : []
    return {
      value: { values: rows.map((value) => ({ aspect: { value, contentType: 'application/json' } })) },
    }
  })
}

describe('TimeseriesPanel', () => {
  it("charts each numeric measure of a dataset's profiles and lists the newest values", async () => {
    const calls = serve([])
    render(<TimeseriesPanel urn={URN} />)
    const profile = await screen.findByRole('region', { name: 'datasetProfile' })
    expect(within(profile).getByRole('heading').textContent).toBe('datasetProfile · 14 values')
    expect(
      within(profile)
        .getAllByRole('img')
        .map((i) => i.getAttribute('aria-label')),
    ).toEqual(['rowCount over time', 'columnCount over time'])
    const columnAxis = [
      ...within(profile).getByRole('img', { name: 'columnCount over time' }).querySelectorAll('text'),
    ]
    expect(columnAxis.map((t) => t.textContent)).toEqual(['5', '0', '2021-08-11', '2021-08-24'])
    const table = within(profile).getByRole('table', { name: 'datasetProfile values' })
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['timestampMillis', 'rowCount', 'columnCount'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(10)
    expect(
      within(rows[0] as HTMLElement)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['2021-08-24 07:00:00', '3742', '5'])
    // Asked for the model's time-series aspects of a dataset, with the dataset's URN.
    expect(calls.map((c) => (c.body as { aspect: string }).aspect)).toContain('datasetUsageStatistics')
    expect(calls.every((c) => (c.body as { urn: string }).urn === URN)).toBe(true)
  })

  it('charts events per day for an aspect without measures (operations)', async () => {
    serve([
      { timestampMillis: 1629788400000, operationType: 'INSERT', lastUpdatedTimestamp: 1629788400000 },
      { timestampMillis: 1629788500000, operationType: 'UPDATE', lastUpdatedTimestamp: 1629788500000 },
      { timestampMillis: 1629702000000, operationType: 'INSERT', lastUpdatedTimestamp: 1629702000000 },
    ])
    render(<TimeseriesPanel urn={URN} />)
    const operations = await screen.findByRole('region', { name: 'operation' })
    const chart = within(operations).getByRole('img', { name: 'events per day over time' })
    expect([...chart.querySelectorAll('rect title')].map((t) => t.textContent)).toEqual([
      '2021-08-23: 1',
      '2021-08-24: 2',
    ])
  })

  it('says when the entity has no time-series values, naming the aspects asked', async () => {
    fakeApi(() => ({ value: { values: [] } }))
    render(<TimeseriesPanel urn={URN} />)
    expect(
      await screen.findByText('No time-series values (datasetProfile, datasetUsageStatistics, operation).'),
    ).toBeTruthy()
    expect(screen.queryByRole('img')).toBeNull()
  })
})
