import t from 'tap'
import { build } from '../helpers/build.js'
import { gql, ingestAspect } from '../helpers/mutation-kit.js'

/** `bulkEntityDataProducts`: the data products of many entities at once, siblings folded in (DataHub's resolver). */

const MYSQL = 'urn:li:dataset:(urn:li:dataPlatform:mysql,db.orders,PROD)'
const DBT = 'urn:li:dataset:(urn:li:dataPlatform:dbt,db.orders,PROD)'
const LONE = 'urn:li:dataset:(urn:li:dataPlatform:hive,lone,PROD)'
const SALES = 'urn:li:dataProduct:sales'
const FINANCE = 'urn:li:dataProduct:finance'
const QUERY = `query($u: [String!]!) { bulkEntityDataProducts(input: {urns: $u}) { entities { urn
  dataProductAssociations { dataProduct { urn properties { name } } isOutputPort } } } }`

t.test("each entity's data products, a sibling's counted, output ports marked", async (t) => {
  const { app } = await build(t)
  for (const urn of [MYSQL, DBT, LONE]) {
    await ingestAspect(app, 'dataset', urn, 'datasetProperties', { name: 'x', customProperties: {} })
  }
  await ingestAspect(app, 'dataset', MYSQL, 'siblings', { siblings: [DBT], primary: true })
  await ingestAspect(app, 'dataProduct', SALES, 'dataProductProperties', {
    name: 'Sales',
    assets: [{ destinationUrn: DBT, outputPort: true }],
  })
  await ingestAspect(app, 'dataProduct', FINANCE, 'dataProductProperties', {
    name: 'Finance',
    assets: [{ destinationUrn: MYSQL }],
  })
  const res = await gql(app, QUERY, { u: [MYSQL, LONE] })
  t.notOk(res.errors, 'no errors')
  const [mysql, lone] = res.data.bulkEntityDataProducts.entities
  t.equal(mysql.urn, MYSQL)
  t.same(
    [...mysql.dataProductAssociations].sort(
      (a: { dataProduct: { urn: string } }, b: { dataProduct: { urn: string } }) =>
        a.dataProduct.urn.localeCompare(b.dataProduct.urn),
    ),
    [
      { dataProduct: { urn: FINANCE, properties: { name: 'Finance' } }, isOutputPort: false },
      { dataProduct: { urn: SALES, properties: { name: 'Sales' } }, isOutputPort: true },
    ],
    "its own product, and its dbt sibling's, where the sibling is an output port",
  )
  t.same(lone, { urn: LONE, dataProductAssociations: [] }, 'none for an entity in no data product')

  const many = await gql(app, QUERY, {
    u: Array.from({ length: 101 }, (_, i) => `urn:li:dataset:(urn:li:dataPlatform:hive,t${i},PROD)`),
  })
  t.equal(many.errors?.[0]?.message, 'Cannot fetch data products for more than 100 entities at once')
  const bad = await gql(app, QUERY, { u: ['not a urn'] })
  t.equal(bad.errors?.[0]?.extensions?.code, 400, 'a malformed urn is a client error')
})
