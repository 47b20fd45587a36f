import t from 'tap'
import { Registry } from './registry.js'

const registry = new Registry()
const defaults = (urn: string) =>
  Object.fromEntries(registry.defaultAspects(registry.resolveUrn(urn)).map((d) => [d.aspect, d.value]))

/** The default aspects of a new entity, browsePathsV2 as DataHub's BrowsePathV2Utils makes it. */
t.test('default browsePathsV2 by entity type', async (t) => {
  const dotted = defaults('urn:li:dataset:(urn:li:dataPlatform:hive,Sales..Orders.Daily,PROD)')
  t.same(Object.keys(dotted), ['datasetKey', 'browsePaths', 'browsePathsV2', 'dataPlatformInstance'])
  t.same(
    dotted.browsePathsV2,
    { path: [{ id: 'sales' }, { id: 'orders' }] },
    'lower-cased, empty parts dropped',
  )
  t.same(
    defaults('urn:li:dataset:(urn:li:dataPlatform:kafka,topic,PROD)').browsePathsV2,
    { path: [{ id: 'Default' }] },
    'a name without folders',
  )
  t.same(defaults('urn:li:dataset:(urn:li:dataPlatform:hive,a.,PROD)').browsePathsV2, {
    path: [{ id: 'Default' }],
  })
  const flow = 'urn:li:dataFlow:(airflow,dag,PROD)'
  t.same(defaults(`urn:li:dataJob:(${flow},task)`).browsePathsV2, { path: [{ id: flow, urn: flow }] })
  for (const urn of [
    'urn:li:chart:(looker,c)',
    'urn:li:dashboard:(looker,d)',
    flow,
    'urn:li:container:abc',
  ]) {
    t.same(defaults(urn).browsePathsV2, { path: [{ id: 'Default' }] }, urn)
  }
  t.notOk('browsePathsV2' in defaults('urn:li:corpuser:jdoe'), 'not for an entity without the aspect')
  t.notOk('browsePathsV2' in defaults('urn:li:tag:t'))
})
