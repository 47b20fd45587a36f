import { ConflictError, type EntityRef, InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { searchOf } from '../resolvers/search.js'
import { referenceRemovals } from './entity-references.js'
import { type PatchOp, patch } from './patch.js'
import { currentAspect, deleteEntity, resolveInput, write } from './support.js'

interface MoveDomainInput {
  readonly parentDomain?: string | null
  readonly resourceUrn: string
}

/** Domains looked at for a name conflict, at most (DataHub's filter asks for 1000). */
const MAX_SIBLINGS = 1000

/** The domains whose `domainProperties.parentDomain` is `parent` now (the incoming IsPartOf edges). */
async function childDomains(ctx: CatalogContext, parent: string, count: number): Promise<readonly string[]> {
  const page = await ctx.client.relationships({
    urn: parent,
    direction: 'INCOMING',
    types: ['IsPartOf'],
    count,
  })
  return page.relationships.map((r) => r.entity).filter((urn) => urn.startsWith('urn:li:domain:'))
}

/** The root domains (no parent), as DataHub finds them: the index's `hasParentDomain` = false. */
async function rootDomains(ctx: CatalogContext): Promise<readonly string[]> {
  const answer = await searchOf(ctx).searchAcrossEntities({
    input: '*',
    entities: ['domain'],
    start: 0,
    count: MAX_SIBLINGS,
    filter: { or: [{ and: [{ field: 'hasParentDomain', values: ['false'], condition: 'EQUAL' }] }] },
    searchFlags: { skipAggregates: true, skipHighlighting: true },
  })
  return answer.metadata.urns
}

/**
 * DataHub's `DomainUtils.hasNameConflict`: a domain named `name` already sits under `parent`
 * (the root when null). Candidates are re-read from the store, so a stale index entry does not
 * count; like DataHub, the moved domain itself counts.
 */
async function hasNameConflict(ctx: CatalogContext, name: string, parent: string | null): Promise<boolean> {
  const candidates = parent ? await childDomains(ctx, parent, MAX_SIBLINGS) : await rootDomains(ctx)
  if (candidates.length === 0) return false
  const stored = await ctx.client.getEntities(candidates, ['domainProperties'])
  return [...stored.values()].some((e) => {
    const props = e.aspects.domainProperties
    return props?.name === name && (props.parentDomain ?? null) === parent
  })
}

/**
 * DataHub's MoveDomainResolver: moves a domain under an existing domain, or to the root when
 * `parentDomain` is null; refuses a name already taken there (409 CONFLICT). One PATCH of
 * `domainProperties.parentDomain`, so a concurrent rename is kept.
 */
async function moveDomain(
  _: unknown,
  { input }: { input: MoveDomainInput },
  ctx: CatalogContext,
): Promise<boolean> {
  const domain = resolveInput(ctx, input.resourceUrn)
  if (domain.entity.name !== 'domain') throw new InvalidInputError('Resource is not a domain.')
  const properties = await currentAspect(ctx, domain.urn, 'domainProperties')
  if (!properties) throw new InvalidInputError('Domain properties do not exist.')
  let parent: EntityRef | null = null
  if (input.parentDomain != null) {
    parent = resolveInput(ctx, input.parentDomain)
    if (parent.entity.name !== 'domain') throw new InvalidInputError('Parent entity is not a domain.')
    if (!(await ctx.client.exists(parent.urn))) throw new InvalidInputError('Parent entity does not exist.')
  }
  const name = String(properties.name)
  if (await hasNameConflict(ctx, name, parent?.urn ?? null)) {
    throw new ConflictError(`"${name}" already exists in the destination domain. Please pick a unique name.`)
  }
  const op: PatchOp = parent
    ? { op: 'add', path: '/parentDomain', value: parent.urn }
    : { op: 'remove', path: '/parentDomain' }
  await write(ctx, [patch(domain, 'domainProperties', [op])])
  return true
}

/**
 * DataHub's DeleteDomainResolver: refuses a domain with child domains; otherwise a hard delete
 * of the domain and of every reference to it (the `domains` of its assets), in one write.
 */
async function deleteDomain(_: unknown, { urn }: { urn: string }, ctx: CatalogContext): Promise<boolean> {
  const domain = resolveInput(ctx, urn)
  if (domain.entity.name !== 'domain') {
    throw new InvalidInputError(`Failed to perform delete against domain with urn ${domain.urn}`)
  }
  if ((await childDomains(ctx, domain.urn, MAX_SIBLINGS)).length > 0) {
    throw new ConflictError(`Cannot delete domain ${domain.urn} which has child domains`)
  }
  await write(ctx, [...(await referenceRemovals(ctx, domain)), deleteEntity(domain)])
  return true
}

export const domainAdminMutations = { moveDomain, deleteDomain }
