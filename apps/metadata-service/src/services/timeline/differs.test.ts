import t from 'tap'
import { parseCategories } from './categories.js'
import { datasetPropertiesDiffer, editableDatasetPropertiesDiffer } from './differs/dataset-description.js'
import { domainsDiffer } from './differs/domains.js'
import { editableSchemaMetadataDiffer } from './differs/editable-schema-metadata.js'
import { globalTagsDiffer } from './differs/global-tags.js'
import { glossaryTermsDiffer } from './differs/glossary-terms.js'
import { deprecationDiffer, statusDiffer } from './differs/lifecycle.js'
import { ownershipDiffer } from './differs/ownership.js'
import { schemaMetadataDiffer } from './differs/schema-metadata.js'
import { jsonDiff } from './json-diff.js'
import type { ChangeCategory } from './types.js'

const DS = 'urn:li:dataset:(urn:li:dataPlatform:hive,t,PROD)'
const ctx = (category: ChangeCategory) => ({ entityUrn: DS, category, auditStamp: null })
const pick = (events: { operation: unknown; description: unknown }[]) =>
  events.map((e) => [e.operation, e.description])

t.test('globalTags: sorted adds and removes, MINOR, only for TAG', async (t) => {
  const events = globalTagsDiffer(
    { tags: [{ tag: 'urn:li:tag:b' }] },
    { tags: [{ tag: 'urn:li:tag:a' }] },
    ctx('TAG'),
  )
  t.same(pick(events), [
    ['ADD', `Tag 'a' added to entity '${DS}'.`],
    ['REMOVE', `Tag 'b' removed from entity '${DS}'.`],
  ])
  t.same(events[0]?.parameters, { tagUrn: 'urn:li:tag:a' })
  t.equal(events[0]?.semVerChange, 'MINOR')
  t.same(globalTagsDiffer(undefined, { tags: [{ tag: 'urn:li:tag:a' }] }, ctx('OWNERSHIP')), [])
})

t.test('glossaryTerms', async (t) => {
  const events = glossaryTermsDiffer(
    undefined,
    { terms: [{ urn: 'urn:li:glossaryTerm:X' }] },
    ctx('GLOSSARY_TERM'),
  )
  t.same(pick(events), [['ADD', `Term 'X' added to entity '${DS}'.`]])
  t.equal(events[0]?.modifier, 'urn:li:glossaryTerm:X')
})

t.test('ownership: add, remove, type change', async (t) => {
  const before = {
    owners: [
      { owner: 'urn:li:corpuser:a', type: 'DATAOWNER' },
      { owner: 'urn:li:corpuser:b', type: 'DATAOWNER' },
    ],
  }
  const after = {
    owners: [
      { owner: 'urn:li:corpuser:b', type: 'DEVELOPER' },
      { owner: 'urn:li:corpuser:c', type: 'DATAOWNER' },
    ],
  }
  const events = ownershipDiffer(before, after, ctx('OWNERSHIP'))
  t.same(pick(events), [
    ['REMOVE', `'a' removed as a \`DATAOWNER\` of '${DS}'.`],
    ['MODIFY', `'b''s ownership type changed from 'DATAOWNER' to 'DEVELOPER' for '${DS}'.`],
    ['ADD', `'c' added as a \`DATAOWNER\` of '${DS}'.`],
  ])
  t.same(
    events.map((e) => e.semVerChange),
    ['MINOR', 'PATCH', 'MINOR'],
  )
  t.equal(events[1]?.modifier, 'DEVELOPER')
})

t.test('dataset descriptions', async (t) => {
  t.same(pick(editableDatasetPropertiesDiffer(undefined, { description: 'x' }, ctx('DOCUMENTATION'))), [
    ['ADD', `Documentation for '${DS}' has been added: 'x'.`],
  ])
  const modified = datasetPropertiesDiffer({ description: 'x' }, { description: 'y' }, ctx('DOCUMENTATION'))
  t.same(pick(modified), [['MODIFY', `Documentation of '${DS}' has been changed from 'x' to 'y'.`]])
  t.same(modified[0]?.parameters, { description: 'y' })
  t.same(datasetPropertiesDiffer({ description: 'x' }, {}, ctx('DOCUMENTATION'))[0]?.operation, 'REMOVE')
})

t.test('schemaMetadata: add, remove, type change, rename, field docs and tags', async (t) => {
  const f = (fieldPath: string, nativeDataType: string, extra = {}) => ({
    fieldPath,
    nativeDataType,
    ...extra,
  })
  const before = { fields: [f('a', 'int'), f('b', 'varchar'), f('old', 'int', { description: 'same' })] }
  const after = {
    fields: [
      f('a', 'bigint'),
      f('c', 'int', { globalTags: { tags: [{ tag: 'urn:li:tag:pii' }] } }),
      f('renamed', 'int', { description: 'same' }),
    ],
  }
  const tech = schemaMetadataDiffer(before, after, ctx('TECHNICAL_SCHEMA'))
  t.same(pick(tech), [
    [
      'MODIFY',
      "A backwards incompatible change due to native datatype of the field 'a' changed from 'int' to 'bigint'.",
    ],
    ['REMOVE', "A backwards incompatible change due to removal of field: 'b'."],
    ['ADD', "A forwards & backwards compatible change due to the newly added field 'c'."],
    ['MODIFY', "A forwards & backwards compatible change due to renaming of the field 'old to renamed'."],
  ])
  t.same(
    tech.map((e) => e.semVerChange),
    ['MAJOR', 'MAJOR', 'MINOR', 'MINOR'],
  )
  t.equal(tech[2]?.modifier, `urn:li:schemaField:(${DS},c)`)
  const tags = schemaMetadataDiffer(before, after, ctx('TAG'))
  t.same(
    tags.map((e) => [e.operation, e.entityUrn, e.parameters]),
    [['ADD', `urn:li:schemaField:(${DS},c)`, { tagUrn: 'urn:li:tag:pii', fieldPath: 'c', parentUrn: DS }]],
  )
  const docs = schemaMetadataDiffer(
    { fields: [f('a', 'int', { description: 'x' })] },
    { fields: [f('a', 'int', { description: 'y' })] },
    ctx('DOCUMENTATION'),
  )
  t.same(pick(docs), [['MODIFY', "The description for the field 'a' has been changed from 'x' to 'y'."]])
  t.equal(docs[0]?.semVerChange, 'PATCH')
})

t.test('editableSchemaMetadata: field docs and terms', async (t) => {
  const after = {
    editableSchemaFieldInfo: [
      { fieldPath: 'a', description: 'doc', glossaryTerms: { terms: [{ urn: 'urn:li:glossaryTerm:T' }] } },
    ],
  }
  const fieldUrn = `urn:li:schemaField:(${DS},a)`
  t.same(pick(editableSchemaMetadataDiffer(undefined, after, ctx('DOCUMENTATION'))), [
    ['ADD', `Documentation for the field 'a' of '${fieldUrn}' has been added: 'doc'`],
  ])
  t.same(pick(editableSchemaMetadataDiffer(undefined, after, ctx('GLOSSARY_TERM'))), [
    ['ADD', `Term 'T' added to entity '${fieldUrn}'.`],
  ])
})

t.test('domains: set, change, unset', async (t) => {
  const d = (u?: string) => ({ domains: u ? [u] : [] })
  t.same(pick(domainsDiffer(d(), d('urn:li:domain:x'), ctx('DOMAIN'))), [
    ['ADD', `Domain 'x' added to entity '${DS}'.`],
  ])
  t.same(
    domainsDiffer(d('urn:li:domain:x'), d('urn:li:domain:y'), ctx('DOMAIN')).map((e) => e.operation),
    ['REMOVE', 'ADD'],
  )
  t.same(domainsDiffer(d('urn:li:domain:x'), d('urn:li:domain:x'), ctx('DOMAIN')), [])
})

t.test('deprecation and status', async (t) => {
  t.same(deprecationDiffer(undefined, { deprecated: true }, ctx('DEPRECATION'))[0]?.parameters, {
    status: 'DEPRECATED',
  })
  t.same(deprecationDiffer({ deprecated: true }, { deprecated: false }, ctx('DEPRECATION'))[0]?.parameters, {
    status: 'ACTIVE',
  })
  t.same(deprecationDiffer({ deprecated: false }, { deprecated: false }, ctx('DEPRECATION')), [])
  t.equal(statusDiffer({ removed: false }, { removed: true }, ctx('LIFECYCLE'))[0]?.operation, 'SOFT_DELETE')
  t.equal(statusDiffer({ removed: true }, { removed: false }, ctx('LIFECYCLE'))[0]?.operation, 'REINSTATE')
})

t.test('categories and raw diff', async (t) => {
  t.same(parseCategories(['tag,owner', 'technical-schema', 'Glossary_Term']), [
    'TAG',
    'OWNERSHIP',
    'TECHNICAL_SCHEMA',
    'GLOSSARY_TERM',
  ])
  t.throws(() => parseCategories(['NOPE']), { message: /for value \[NOPE\]/ })
  t.throws(() => parseCategories([]), { message: /'categories'/ })
  t.same(jsonDiff({ a: 1, b: [1, 2] }, { a: 2, b: [1], c: 'x' }), [
    { op: 'replace', path: '/a', value: 2 },
    { op: 'remove', path: '/b/1' },
    { op: 'add', path: '/c', value: 'x' },
  ])
})
