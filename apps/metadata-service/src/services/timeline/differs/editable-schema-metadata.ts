import { diffAssociations, list, onField, schemaFieldUrn, str, TAGS, TERMS } from '../associations.js'
import { type ChangeEvent, changeEvent, type DiffContext, type Differ } from '../types.js'

type FieldInfo = Record<string, unknown> & { fieldPath: string }

function infos(value: Record<string, unknown> | undefined): Map<string, FieldInfo> {
  const out = new Map<string, FieldInfo>()
  for (const f of list(value?.editableSchemaFieldInfo))
    if (typeof f.fieldPath === 'string') out.set(f.fieldPath, f as FieldInfo)
  return out
}

function documentation(
  base: FieldInfo | undefined,
  target: FieldInfo | undefined,
  fieldUrn: string,
  ctx: DiffContext,
) {
  const from = str(base?.description)
  const to = str(target?.description)
  const path = ((target ?? base) as FieldInfo).fieldPath
  const event = (operation: 'ADD' | 'REMOVE' | 'MODIFY', description: string) =>
    changeEvent({
      modifier: path,
      entityUrn: fieldUrn,
      category: 'DOCUMENTATION',
      operation,
      semVerChange: operation === 'MODIFY' ? 'PATCH' : 'MINOR',
      description,
      auditStamp: ctx.auditStamp,
    })
  if (from === undefined && to !== undefined)
    return [event('ADD', `Documentation for the field '${path}' of '${fieldUrn}' has been added: '${to}'`)]
  if (from !== undefined && to === undefined)
    return [
      event('REMOVE', `Documentation for the field '${path}' of '${fieldUrn}' has been removed: '${from}'`),
    ]
  if (from !== undefined && to !== undefined && from !== to)
    return [
      event(
        'MODIFY',
        `Documentation for the field '${path}' of '${fieldUrn}' has been updated from '${from}' to '${to}'.`,
      ),
    ]
  return []
}

/**
 * `editableSchemaMetadata` (field-level DOCUMENTATION, TAG, GLOSSARY_TERM): DataHub's
 * EditableSchemaMetadataChangeEventGenerator, field infos matched by path.
 */
export const editableSchemaMetadataDiffer: Differ = (previous, next, ctx) => {
  const from = infos(previous)
  const to = infos(next)
  const events: ChangeEvent[] = []
  for (const path of [...new Set([...from.keys(), ...to.keys()])].sort()) {
    const base = from.get(path)
    const target = to.get(path)
    const fieldUrn = schemaFieldUrn(ctx.entityUrn, path)
    if (ctx.category === 'DOCUMENTATION') events.push(...documentation(base, target, fieldUrn, ctx))
    const kind = ctx.category === 'TAG' ? TAGS : ctx.category === 'GLOSSARY_TERM' ? TERMS : undefined
    if (!kind) continue
    const holder = kind === TAGS ? 'globalTags' : 'glossaryTerms'
    const listKey = kind === TAGS ? 'tags' : 'terms'
    const pick = (f: FieldInfo | undefined) => (f?.[holder] as Record<string, unknown> | undefined)?.[listKey]
    events.push(
      ...onField(diffAssociations(kind, pick(base), pick(target), fieldUrn, ctx.auditStamp), path, fieldUrn),
    )
  }
  return events
}
