import { render, screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import profiles from '../../../../../test/fixtures/datahub/metadata-ingestion_examples_mce_files_demo-profiles.json'
import { numericSeries, type TimeseriesEvent } from '../../lib/timeseries.js'
import { TimeChart } from './time-chart.js'

// DataHub's demo datasetProfile rows for SampleHdfsDataset: 14 days, newest first.
const events = profiles.map((p) => JSON.parse(p.aspect.value) as TimeseriesEvent)

const svgTexts = (title: string) =>
  [...screen.getByRole('img', { name: `${title} over time` }).querySelectorAll('text')].map(
    (t) => t.textContent,
  )

describe('TimeChart', () => {
  it("charts a profile's rowCount: the value range on the y axis, the first and last day on the x axis", () => {
    const rowCount = numericSeries(events).find((s) => s.field === 'rowCount')
    if (!rowCount) throw new Error('no rowCount series')
    render(<TimeChart title="rowCount" points={rowCount.points} kind="line" />)
    expect(screen.getByTestId('chart-rowCount').querySelector('figcaption')?.textContent).toBe(
      'rowCount (14 points)',
    )
    expect(svgTexts('rowCount')).toEqual(['3.7K', '0', '2021-08-11', '2021-08-24'])
    const figure = screen.getByRole('img', { name: 'rowCount over time' })
    expect(figure.querySelectorAll('circle')).toHaveLength(14)
    expect(figure.querySelector('circle title')?.textContent).toBe('2021-08-11: 3,742')
    expect(figure.querySelector('polyline')?.getAttribute('points')?.split(' ')).toHaveLength(14)
    // The y axis starts at zero: an unchanged row count is drawn at the top, first day leftmost.
    const circles = [...figure.querySelectorAll('circle')]
    expect(new Set(circles.map((c) => c.getAttribute('cy')))).toEqual(new Set(['10']))
    expect(circles[0]?.getAttribute('cx')).toBe('56')
    expect(circles.at(-1)?.getAttribute('cx')).toBe('348')
  })

  it('draws bars with negative values below zero on the axis', () => {
    const day = 86_400_000
    render(
      <TimeChart
        title="events per day"
        kind="bars"
        points={[
          { t: 1629788400000 - day, v: -1200 },
          { t: 1629788400000, v: 2_500_000 },
        ]}
      />,
    )
    expect(svgTexts('events per day')).toEqual(['2.5M', '-1.2K', '2021-08-23', '2021-08-24'])
    const chart = screen.getByRole('img', { name: 'events per day over time' })
    expect([...chart.querySelectorAll('rect title')].map((t) => t.textContent)).toEqual([
      '2021-08-23: -1,200',
      '2021-08-24: 2,500,000',
    ])
    expect(chart.querySelector('polyline')).toBeNull()
    expect(within(screen.getByTestId('chart-events per day')).getByText('(2 points)')).toBeTruthy()
  })
})
