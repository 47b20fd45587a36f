import { list, str, urnId } from '../associations.js'
import { type ChangeEvent, changeEvent, type Differ } from '../types.js'

interface Owner {
  readonly owner: string
  readonly type: string
  readonly typeUrn?: string
}

function owners(value: unknown): Map<string, Owner> {
  const out = new Map<string, Owner>()
  for (const o of list(value)) {
    const owner = str(o.owner)
    if (!owner) continue
    const typeUrn = str(o.typeUrn)
    out.set(owner, { owner, type: str(o.type) ?? 'NONE', ...(typeUrn ? { typeUrn } : {}) })
  }
  return out
}

/**
 * `ownership` (OWNERSHIP): DataHub's OwnershipChangeEventGenerator. Owners added or removed
 * are MINOR; an owner whose type changed is a PATCH MODIFY whose modifier is the new type.
 */
export const ownershipDiffer: Differ = (previous, next, ctx) => {
  if (ctx.category !== 'OWNERSHIP') return []
  const from = owners(previous?.owners)
  const to = owners(next?.owners)
  const urn = ctx.entityUrn
  const events: ChangeEvent[] = []
  const parameters = (o: Owner) => ({
    ownerUrn: o.owner,
    ownerType: o.type,
    ...(o.typeUrn ? { ownerTypeUrn: o.typeUrn } : {}),
  })
  for (const key of [...new Set([...from.keys(), ...to.keys()])].sort()) {
    const base = from.get(key)
    const target = to.get(key)
    if (base && target) {
      if (base.type === target.type) continue
      events.push(
        changeEvent({
          modifier: target.type,
          entityUrn: urn,
          category: 'OWNERSHIP',
          operation: 'MODIFY',
          semVerChange: 'PATCH',
          description: `'${urnId(key)}''s ownership type changed from '${base.type}' to '${target.type}' for '${urn}'.`,
          parameters: parameters(target),
          auditStamp: ctx.auditStamp,
        }),
      )
    } else {
      const o = (target ?? base) as Owner
      events.push(
        changeEvent({
          modifier: key,
          entityUrn: urn,
          category: 'OWNERSHIP',
          operation: target ? 'ADD' : 'REMOVE',
          semVerChange: 'MINOR',
          description: target
            ? `'${urnId(key)}' added as a \`${o.type}\` of '${urn}'.`
            : `'${urnId(key)}' removed as a \`${o.type}\` of '${urn}'.`,
          parameters: parameters(o),
          auditStamp: ctx.auditStamp,
        }),
      )
    }
  }
  return events
}
