import { RawAspects } from './raw-aspects.js'
import { RelationshipsPanel } from './relationships-panel.js'
import { TimeseriesPanel } from './timeseries-panel.js'

/** The entity page's tabs loaded on demand (their own chunk, with the model facts). */
export default function EntityExtras({
  urn,
  tab,
}: {
  urn: string
  tab: 'Relationships' | 'Time series' | 'Raw JSON'
}) {
  if (tab === 'Relationships') return <RelationshipsPanel urn={urn} />
  if (tab === 'Time series') return <TimeseriesPanel urn={urn} />
  return <RawAspects urn={urn} />
}
