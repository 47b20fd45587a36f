import {
  diffAssociations,
  fieldPathV1,
  list,
  onField,
  schemaFieldUrn,
  str,
  TAGS,
  TERMS,
} from '../associations.js'
import { type ChangeEvent, changeEvent, type DiffContext, type Differ } from '../types.js'

type Field = Record<string, unknown> & { fieldPath: string }

const INCOMPATIBLE = 'A backwards incompatible change due to'
const COMPATIBLE = 'A forwards & backwards compatible change due to '

function fields(value: Record<string, unknown> | undefined): Field[] {
  return list(value?.fields)
    .filter((f): f is Field => typeof f.fieldPath === 'string')
    .sort((a, b) => (a.fieldPath < b.fieldPath ? -1 : a.fieldPath > b.fieldPath ? 1 : 0))
}

const parentPath = (p: string) => (p.lastIndexOf('.') > 0 ? p.slice(0, p.lastIndexOf('.')) : undefined)

/** DataHub's rename guess: same native type, same parent path and the same non-blank description. */
function isRenamed(a: Field, b: Field): boolean {
  const description = str(a.description)
  return (
    a.nativeDataType === b.nativeDataType &&
    parentPath(a.fieldPath) === parentPath(b.fieldPath) &&
    description !== undefined &&
    description.trim() !== '' &&
    description === b.description
  )
}

/** Description, tag and term events of one field pair, for the category asked. */
function propertyEvents(base: Field | undefined, target: Field | undefined, ctx: DiffContext): ChangeEvent[] {
  const field = (target ?? base) as Field
  const fieldUrn = schemaFieldUrn(ctx.entityUrn, fieldPathV1(field.fieldPath))
  if (ctx.category === 'DOCUMENTATION') {
    const from = str(base?.description)
    const to = str(target?.description)
    const doc = (operation: 'ADD' | 'REMOVE' | 'MODIFY', description: string) => [
      changeEvent({
        operation,
        semVerChange: operation === 'MODIFY' ? 'PATCH' : 'MINOR',
        category: 'DOCUMENTATION',
        entityUrn: fieldUrn,
        description,
        auditStamp: ctx.auditStamp,
      }),
    ]
    if (from === undefined && to !== undefined)
      return doc('ADD', `The description '${to}' for the field '${field.fieldPath}' has been added.`)
    if (from !== undefined && to === undefined)
      return doc('REMOVE', `The description '${from}' for the field '${field.fieldPath}' has been removed.`)
    if (from !== undefined && from !== to)
      return doc(
        'MODIFY',
        `The description for the field '${field.fieldPath}' has been changed from '${from}' to '${to}'.`,
      )
    return []
  }
  const kind = ctx.category === 'TAG' ? TAGS : ctx.category === 'GLOSSARY_TERM' ? TERMS : undefined
  if (!kind) return []
  const key = kind === TAGS ? 'globalTags' : 'glossaryTerms'
  const pick = (f: Field | undefined, k: string) => (f?.[key] as Record<string, unknown> | undefined)?.[k]
  const listKey = kind === TAGS ? 'tags' : 'terms'
  return onField(
    diffAssociations(kind, pick(base, listKey), pick(target, listKey), fieldUrn, ctx.auditStamp),
    field.fieldPath,
    ctx.entityUrn,
  )
}

function fieldEvent(
  ctx: DiffContext,
  field: Field,
  operation: 'ADD' | 'REMOVE' | 'MODIFY',
  semVerChange: 'MINOR' | 'MAJOR',
  description: string,
): ChangeEvent {
  const fieldUrn = schemaFieldUrn(ctx.entityUrn, fieldPathV1(field.fieldPath))
  return changeEvent({
    category: 'TECHNICAL_SCHEMA',
    modifier: fieldUrn,
    entityUrn: ctx.entityUrn,
    operation,
    semVerChange,
    description,
    parameters: {
      fieldPath: field.fieldPath,
      fieldUrn,
      nullable: field.nullable === true,
      modificationCategory: 'OTHER',
    },
    auditStamp: ctx.auditStamp,
  })
}

/**
 * `schemaMetadata` (TECHNICAL_SCHEMA, and field-level DOCUMENTATION, TAG, GLOSSARY_TERM):
 * DataHub's SchemaMetadataChangeEventGenerator. Fields are matched by path; a field only on
 * one side is first tried as a rename of an unmatched field on the other side.
 */
export const schemaMetadataDiffer: Differ = (previous, next, ctx) => {
  const base = fields(previous)
  const target = fields(next)
  const technical = ctx.category === 'TECHNICAL_SCHEMA'
  const events: ChangeEvent[] = []
  const renamed = new Set<Field>()
  const remove = (f: Field) => {
    if (technical)
      events.push(
        fieldEvent(
          ctx,
          f,
          'REMOVE',
          'MAJOR',
          `${INCOMPATIBLE} removal of field: '${fieldPathV1(f.fieldPath)}'.`,
        ),
      )
    events.push(...propertyEvents(f, undefined, ctx))
  }
  const add = (f: Field) => {
    if (technical)
      events.push(
        fieldEvent(
          ctx,
          f,
          'ADD',
          'MINOR',
          `${COMPATIBLE}the newly added field '${fieldPathV1(f.fieldPath)}'.`,
        ),
      )
    events.push(...propertyEvents(undefined, f, ctx))
  }
  const rename = (from: Field, to: Field) => {
    if (technical)
      events.push(
        fieldEvent(
          ctx,
          from,
          'MODIFY',
          'MINOR',
          `${COMPATIBLE}renaming of the field '${fieldPathV1(from.fieldPath)} to ${fieldPathV1(to.fieldPath)}'.`,
        ),
      )
  }
  let i = 0
  let j = 0
  while (i < base.length && j < target.length) {
    const b = base[i] as Field
    const t = target[j] as Field
    if (renamed.has(b)) i++
    else if (renamed.has(t)) j++
    else if (b.fieldPath === t.fieldPath) {
      if (technical && b.nativeDataType !== t.nativeDataType)
        events.push(
          fieldEvent(
            ctx,
            b,
            'MODIFY',
            'MAJOR',
            `${INCOMPATIBLE} native datatype of the field '${fieldPathV1(t.fieldPath)}' changed from '${String(b.nativeDataType)}' to '${String(t.nativeDataType)}'.`,
          ),
        )
      events.push(...propertyEvents(b, t, ctx))
      i++
      j++
    } else if (b.fieldPath < t.fieldPath) {
      const to = target.slice(j).find((f) => !renamed.has(f) && isRenamed(b, f))
      if (to) {
        rename(b, to)
        renamed.add(to)
      } else remove(b)
      i++
    } else {
      const from = base.slice(i).find((f) => !renamed.has(f) && isRenamed(t, f))
      if (from) {
        rename(from, t)
        renamed.add(from)
      } else add(t)
      j++
    }
  }
  for (; i < base.length; i++) if (!renamed.has(base[i] as Field)) remove(base[i] as Field)
  for (; j < target.length; j++) if (!renamed.has(target[j] as Field)) add(target[j] as Field)
  if (technical) events.push(...primaryKeyEvents(previous, next, ctx))
  return events.filter((e) => e.category === ctx.category)
}

function primaryKeyEvents(
  previous: Record<string, unknown> | undefined,
  next: Record<string, unknown> | undefined,
  ctx: DiffContext,
): ChangeEvent[] {
  const keys = (v: Record<string, unknown> | undefined) =>
    new Set(
      Array.isArray(v?.primaryKeys) ? (v.primaryKeys as unknown[]).filter((k) => typeof k === 'string') : [],
    )
  const from = keys(previous)
  const to = keys(next)
  const event = (key: string, what: string) =>
    changeEvent({
      category: 'TECHNICAL_SCHEMA',
      modifier: schemaFieldUrn(ctx.entityUrn, key as string),
      entityUrn: ctx.entityUrn,
      operation: 'MODIFY',
      semVerChange: 'MAJOR',
      description: `${INCOMPATIBLE} ${what} of the primary key field '${key}'`,
      auditStamp: ctx.auditStamp,
    })
  return [
    ...[...from].filter((k) => !to.has(k)).map((k) => event(k as string, 'removal')),
    ...[...to].filter((k) => !from.has(k)).map((k) => event(k as string, 'addition')),
  ]
}
