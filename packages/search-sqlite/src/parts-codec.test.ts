import { ContractFixture } from '@catalog/search/contract-fixtures'
import Database from 'better-sqlite3'
import t from 'tap'
import { PartsCodec } from './parts-codec.js'

const fx = new ContractFixture()
const codec = PartsCodec.of(fx.schema)
const parts = {
  datasetKey: { platform: ['urn:li:dataPlatform:hive'], origin: ['PROD'] },
  datasetProperties: { description: ['Daily "orders"\\n'], name: ['orders'], hasDescription: [true] },
  upstreamLineage: { upstreams: ['urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', 'x'] },
  notAnAspect: { notAField: [1.5, 2] },
}

t.test('contributions come back as they went in, in their order, with names as short codes', async (t) => {
  const text = codec.encode(parts)
  t.same(codec.decode(text), parts)
  t.same(Object.keys(codec.decode(text)), Object.keys(parts), 'aspects in the order given')
  t.same(JSON.parse(text), JSON.parse(JSON.stringify(JSON.parse(text))), 'plain JSON')
  t.notMatch(text, /datasetProperties|hasDescription|upstreams/, 'known names are codes')
  t.match(text, /"=notAnAspect":\{"=notAField":\[1\.5,2\]\}/, 'an unknown name is written as it is, marked')
  t.ok(text.length < JSON.stringify(parts).length - 60)
  t.ok(codec.names.length > 50, 'one- and two-letter codes')
  t.same(new Set(codec.names).size, codec.names.length)
})

t.test('the stored codes are read by SQLite’s JSON functions through the codec’s paths', async (t) => {
  const db = new Database(':memory:')
  t.teardown(() => db.close())
  const text = codec.encode(parts)
  const values = (aspect: string, field: string) =>
    db.prepare('SELECT value FROM json_each(?, ?)').pluck().all(text, codec.path(aspect, field))
  t.same(values('datasetProperties', 'description'), ['Daily "orders"\\n'])
  t.same(values('upstreamLineage', 'upstreams'), ['urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', 'x'])
  t.same(values('notAnAspect', 'notAField'), [1.5, 2])
  t.same(values('datasetKey', 'description'), [])
})

t.test('parts written before layout 6 (names as they are) are read by the stored codec', async (t) => {
  const legacy = PartsCodec.stored(undefined)
  t.same(legacy.decode(JSON.stringify(parts)), parts)
  const again = PartsCodec.stored(codec.names)
  t.same(again.decode(codec.encode(parts)), parts, 'a recorded dictionary decodes what it wrote')
  t.throws(() => codec.decode('{"zzzz":{}}'), /unknown name code/)
})
