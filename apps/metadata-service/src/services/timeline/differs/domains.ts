import { urnId } from '../associations.js'
import { type ChangeEvent, changeEvent, type Differ } from '../types.js'

function first(value: Record<string, unknown> | undefined): string | undefined {
  const domains = value?.domains
  return Array.isArray(domains) && typeof domains[0] === 'string' ? domains[0] : undefined
}

/**
 * `domains` (DOMAIN): DataHub's SingleDomainChangeEventGenerator compares the first domain
 * only; a change is a REMOVE of the old one and an ADD of the new one, MINOR each.
 */
export const domainsDiffer: Differ = (previous, next, ctx) => {
  if (ctx.category !== 'DOMAIN') return []
  const base = first(previous)
  const target = first(next)
  const urn = ctx.entityUrn
  const event = (domain: string, added: boolean): ChangeEvent =>
    changeEvent({
      category: 'DOMAIN',
      semVerChange: 'MINOR',
      operation: added ? 'ADD' : 'REMOVE',
      entityUrn: urn,
      modifier: domain,
      parameters: { domainUrn: domain },
      description: added
        ? `Domain '${urnId(domain)}' added to entity '${urn}'.`
        : `Domain '${urnId(domain)}' removed from entity '${urn}'.`,
      auditStamp: ctx.auditStamp,
    })
  if (base === target) return []
  return [...(base ? [event(base, false)] : []), ...(target ? [event(target, true)] : [])]
}
