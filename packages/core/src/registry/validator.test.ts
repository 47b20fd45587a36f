import t from 'tap'
import { ValidationError } from '../errors.js'
import { Registry } from './registry.js'

const registry = new Registry()
const dataset = registry.entity('dataset')
const aspect = (name: string) => registry.aspect(dataset, name)

/** The problem lines of a refused value. */
function problems(name: string, value: unknown): string[] {
  try {
    registry.validateAspect(aspect(name), value)
  } catch (err) {
    if (!(err instanceof ValidationError)) throw err
    return err.message
      .split('\n')
      .map((line) => line.replace(/^Failed to validate record with class \S+: /, ''))
  }
  throw new Error('the value was accepted')
}

const schema = {
  schemaName: 's',
  platform: 'urn:li:dataPlatform:hive',
  version: 0,
  hash: '',
  platformSchema: { 'com.linkedin.schema.OtherSchema': { rawSchema: '' } },
  fields: [],
}

t.test(
  'a problem names the JSON pointer of its member, escaped, through maps, arrays and unions',
  async (t) => {
    t.same(
      problems('datasetProperties', { customProperties: { ok: 'x', 'a/b~c': 7 } }),
      ['ERROR :: /customProperties/a~1b~0c :: 7 is not a valid string'],
      'a map key is escaped as RFC 6901 says',
    )
    t.same(
      problems('schemaMetadata', {
        ...schema,
        platformSchema: { 'com.linkedin.pegasus2avro.schema.OtherSchema': { rawSchema: 5 } },
      }),
      ['ERROR :: /platformSchema/com.linkedin.schema.OtherSchema/rawSchema :: 5 is not a valid string'],
      'a union member is named by its canonical record name',
    )
    t.same(
      problems('upstreamLineage', {
        upstreams: [
          { dataset: 'urn:li:dataset:(urn:li:dataPlatform:hive,a,PROD)', type: 'COPY' },
          { type: 'BOGUS' },
        ],
      }),
      [
        'ERROR :: /upstreams/1/dataset :: field is required but not found and has no default value',
        'ERROR :: /upstreams/1/type :: "BOGUS" is not an enum symbol of com.linkedin.dataset.DatasetLineageType',
      ],
      'array members by index, problems in the order of the record fields',
    )
    t.same(problems('status', 'no'), ['ERROR :: / :: expected a JSON object'], 'the root is /')
  },
)

t.test('at most five problems are reported, and a refused value leaves nothing behind', async (t) => {
  const many = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, i]))
  const lines = problems('datasetProperties', { customProperties: many })
  t.same(
    lines,
    [0, 1, 2, 3, 4].map((i) => `ERROR :: /customProperties/k${i} :: ${i} is not a valid string`),
    'the first five, in order',
  )
  // The pointer of the next value's problem starts from the root again.
  t.same(problems('upstreamLineage', { upstreams: [{ type: 'COPY' }] }), [
    'ERROR :: /upstreams/0/dataset :: field is required but not found and has no default value',
  ])
  t.same(
    registry.validateAspect(aspect('datasetProperties'), {
      description: 'd',
      customProperties: { b: '2', a: '1', drop: null },
      unknown: 1,
    }),
    { description: 'd', customProperties: { b: '2', a: '1' } },
    'a valid value is normalized as before (nulls and unknown members dropped)',
  )
})
