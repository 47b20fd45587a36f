import { timeseriesAspects, timeseriesValues } from '../../api/entity-rest.js'
import { numericSeries, perDay, scalarColumns, type TimeseriesEvent } from '../../lib/timeseries.js'
import { useApi } from '../../lib/use-api.js'
import { TimeChart } from './time-chart.js'

/** Rows of the newest values shown under the charts. */
const LATEST_ROWS = 10

/**
 * The entity's time-series aspects (profiles, usage, operations, run events: whatever the model
 * gives its type): each numeric measure charted over time, or the events per day when there is
 * none, then the newest values.
 */
export function TimeseriesPanel({ urn }: { urn: string }) {
  const aspects = timeseriesAspects(urn)
  const loaded = useApi(`timeseries:${urn}`, async () =>
    Promise.all(aspects.map(async (aspect) => ({ aspect, events: await timeseriesValues(urn, aspect) }))),
  )
  if (loaded.error) return <p className="error">{loaded.error.message}</p>
  if (!loaded.data) return <p className="muted">Loading…</p>
  const present = loaded.data.filter((a) => a.events.length > 0)
  if (present.length === 0)
    return <p className="muted">No time-series values{aspects.length ? ` (${aspects.join(', ')})` : ''}.</p>
  return (
    <div className="timeseries">
      {present.map(({ aspect, events }) => (
        <AspectSeries key={aspect} aspect={aspect} events={events} />
      ))}
    </div>
  )
}

function AspectSeries({ aspect, events }: { aspect: string; events: TimeseriesEvent[] }) {
  const series = numericSeries(events)
  const columns = scalarColumns(events)
  return (
    <section aria-label={aspect} data-testid={`timeseries-${aspect}`}>
      <h3>
        {aspect} <span className="muted">· {events.length} values</span>
      </h3>
      <div className="charts">
        {series.length > 0 ? (
          series.map((s) => <TimeChart key={s.field} title={s.field} points={s.points} kind="line" />)
        ) : (
          <TimeChart title="events per day" points={perDay(events)} kind="bars" />
        )}
      </div>
      <table className="properties" aria-label={`${aspect} values`}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {events.slice(0, LATEST_ROWS).map((e) => (
            <tr key={columns.map((c) => String(e[c])).join('|')}>
              {columns.map((c) => (
                <td key={c}>
                  {c === 'timestampMillis' && typeof e[c] === 'number'
                    ? new Date(e[c]).toISOString().replace('T', ' ').slice(0, 19)
                    : String(e[c] ?? '')}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
