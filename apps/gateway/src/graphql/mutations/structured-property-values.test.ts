import t from 'tap'
import { assignmentError, toPrimitive, valueText, valueTypeId } from './structured-property-values.js'

const P = 'urn:li:structuredProperty:p'
const type = (id: string) => ({ valueType: `urn:li:dataType:${id}` })

t.test('values print as DataHub prints a PrimitivePropertyValue', async (t) => {
  t.same(toPrimitive({ stringValue: 'a', numberValue: 1 }), { string: 'a' }, 'the string wins')
  t.same(toPrimitive({ numberValue: 0 }), { double: 0 })
  t.same(toPrimitive({}), {})
  t.same(
    [
      valueText({ double: 30 }),
      valueText({ double: 1.5 }),
      valueText({ double: 1e21 }),
      valueText({ double: 1.5e-4 }),
    ],
    ['{double=30.0}', '{double=1.5}', '{double=1.0E21}', '{double=1.5E-4}'],
  )
  t.same([valueText({ string: 'x' }), valueText({})], ['{string=x}', '{}'])
  t.same(
    ['urn:li:dataType:datahub.rich_text', 'urn:li:dataType:datahub.NUMBER', 'urn:li:dataType:custom'].map(
      valueTypeId,
    ),
    ['rich_text', 'number', 'custom'],
  )
})

t.test('types', async (t) => {
  t.equal(assignmentError(P, type('datahub.string'), [{ string: 'x' }]), undefined)
  t.equal(
    assignmentError(P, type('datahub.rich_text'), [{ double: 1 }]),
    `Property: ${P}, value: {double=1.0} should be a string`,
  )
  for (const ok of ['1', ' 2.5 ', '-3e2', '1d', 'NaN', 'Infinity']) {
    t.equal(
      assignmentError(P, type('datahub.number'), [{ string: ok }]),
      undefined,
      `${ok} parses as a double`,
    )
  }
  for (const bad of ['', 'abc', '1,5']) {
    t.equal(
      assignmentError(P, type('datahub.number'), [{ string: bad }]),
      `Property: ${P}, value: {string=${bad}} should be a number`,
    )
  }
  t.equal(assignmentError(P, type('datahub.date'), [{ string: '2024-02-29' }]), undefined, 'a leap day')
  for (const bad of ['2023-02-29', '2024-1-01', '0999-12-31', '2024-13-01']) {
    t.match(
      assignmentError(P, type('datahub.date'), [{ string: bad }]),
      /should be a date with format YYYY-MM-DD$/,
    )
  }
  t.equal(
    assignmentError(P, type('datahub.unknown'), [{ string: 'x' }]),
    'Validation support for type urn:li:dataType:datahub.unknown is not yet implemented.',
  )
})

t.test('urn values and their allowed entity types', async (t) => {
  const def = {
    ...type('datahub.urn'),
    typeQualifier: { allowedTypes: ['urn:li:entityType:datahub.corpuser'] },
  }
  t.equal(assignmentError(P, def, [{ string: 'urn:li:corpuser:jdoe' }]), undefined)
  t.equal(
    assignmentError(P, def, [{ string: 'jdoe' }]),
    `Property: ${P}, value: {string=jdoe} should be an urn`,
  )
  t.equal(
    assignmentError(P, def, [{ string: 'urn:li:tag:x' }]),
    `Property: ${P}, value: {string=urn:li:tag:x} is not of any supported urn types:[urn:li:entityType:datahub.corpuser]`,
  )
  t.equal(
    assignmentError(P, type('datahub.urn'), [{ string: 'urn:li:tag:x' }]),
    undefined,
    'any type without a qualifier',
  )
})

t.test('cardinality and allowed values', async (t) => {
  const two = [{ string: 'a' }, { string: 'b' }]
  t.equal(
    assignmentError(P, type('datahub.string'), two),
    `Property: ${P} has cardinality 1, but multiple values were assigned: [{string=a}, {string=b}]`,
    'SINGLE by default',
  )
  t.equal(assignmentError(P, { ...type('datahub.string'), cardinality: 'MULTIPLE' }, two), undefined)
  const allowed = {
    ...type('datahub.number'),
    allowedValues: [{ value: { double: 30 } }, { value: { double: 90 } }],
  }
  t.equal(assignmentError(P, allowed, [{ double: 90 }]), undefined)
  t.equal(
    assignmentError(P, allowed, [{ double: 45 }]),
    `Property: ${P}, value: {double=45.0} should be one of [{double=30.0}, {double=90.0}]`,
  )
  t.equal(assignmentError(P, type('datahub.string'), []), undefined, 'no value is valid')
})
