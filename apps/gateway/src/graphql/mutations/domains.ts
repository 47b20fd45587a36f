import { randomUUID } from 'node:crypto'
import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { systemOwnershipTypeUrn } from '../mappers/common.js'
import { patch } from './patch.js'
import { resolveInput, stampOf, upsert, write } from './support.js'
import { type ResourceRef, validateResource } from './validate.js'

interface BatchSetDomainInput {
  readonly domainUrn?: string | null
  readonly resources: ReadonlyArray<ResourceRef | null>
}

interface OwnerInput {
  readonly ownerUrn: string
  readonly type?: string | null
  readonly ownershipTypeUrn?: string | null
}

interface CreateDomainInput {
  readonly id?: string | null
  readonly name: string
  readonly description?: string | null
  readonly parentDomain?: string | null
  readonly owners?: readonly OwnerInput[] | null
}

/**
 * `domains` set to exactly `domain` (none when null), as one PATCH replacing the list: the
 * entity keeps any other member of the aspect, and the last of two racing writes wins whole.
 */
function setDomains(ref: EntityRef, domain: string | null): MetadataProposal {
  return patch(ref, 'domains', [{ op: 'add', path: '/domains', value: domain ? [domain] : [] }])
}

/** DataHub's SetDomainResolver: the domain, then the entity, must exist. */
async function setDomain(
  _: unknown,
  args: { entityUrn: string; domainUrn: string },
  ctx: CatalogContext,
): Promise<boolean> {
  const entity = resolveInput(ctx, args.entityUrn)
  const domain = resolveInput(ctx, args.domainUrn)
  const fail = (what: string) =>
    new InvalidInputError(
      `Failed to add Entity ${entity.urn} to Domain ${domain.urn}. ${what} does not exist.`,
    )
  if (domain.entity.name !== 'domain' || !(await ctx.client.exists(domain.urn))) throw fail('Domain')
  if (!(await ctx.client.exists(entity.urn))) throw fail('Entity')
  await write(ctx, [setDomains(entity, domain.urn)])
  return true
}

/** DataHub's UnsetDomainResolver: the entity must exist; its `domains` becomes empty. */
async function unsetDomain(_: unknown, args: { entityUrn: string }, ctx: CatalogContext): Promise<boolean> {
  const entity = resolveInput(ctx, args.entityUrn)
  if (!(await ctx.client.exists(entity.urn))) {
    throw new InvalidInputError(`Failed to unset Domain for Entity ${entity.urn}. Entity does not exist.`)
  }
  await write(ctx, [setDomains(entity, null)])
  return true
}

/** DataHub's BatchSetDomainResolver: a null `domainUrn` unsets; every resource validated first. */
async function batchSetDomain(
  _: unknown,
  { input }: { input: BatchSetDomainInput },
  ctx: CatalogContext,
): Promise<boolean> {
  let domain: string | null = null
  if (input.domainUrn != null) {
    const ref = resolveInput(ctx, input.domainUrn)
    if (ref.entity.name !== 'domain' || !(await ctx.client.exists(ref.urn))) {
      throw new InvalidInputError(`Failed to validate Domain with urn ${ref.urn}. Urn does not exist.`)
    }
    domain = ref.urn
  }
  const proposals: MetadataProposal[] = []
  for (const [i, resource] of input.resources.entries()) {
    if (!resource) throw new InvalidInputError(`Failed to update resources: resources[${i}] is null`)
    proposals.push(setDomains(await validateResource(ctx, resource), domain))
  }
  await write(ctx, proposals)
  return true
}

/**
 * DataHub's CreateDomainResolver: refuses an existing id ("This Domain already exists!") and a
 * parent that is not an existing domain; writes `domainProperties` and `ownership` (the given
 * owners, or the creator as technical owner). Returns the new URN.
 */
async function createDomain(
  _: unknown,
  { input }: { input: CreateDomainInput },
  ctx: CatalogContext,
): Promise<string> {
  const domain = resolveInput(ctx, `urn:li:domain:${input.id ?? randomUUID()}`)
  if (await ctx.client.exists(domain.urn)) throw new InvalidInputError('This Domain already exists!')
  const properties: AspectValue = { name: input.name, created: stampOf(ctx) }
  if (input.description != null) properties.description = input.description
  if (input.parentDomain != null) {
    const parent = resolveInput(ctx, input.parentDomain)
    if (parent.entity.name !== 'domain' || !(await ctx.client.exists(parent.urn))) {
      throw new InvalidInputError(`Parent Domain ${parent.urn} does not exist.`)
    }
    properties.parentDomain = parent.urn
  }
  const owners = (
    input.owners?.length ? input.owners : [{ ownerUrn: ctx.actor, type: 'TECHNICAL_OWNER' }]
  ).map((o) => {
    const type = o.type ?? 'NONE'
    const owner = resolveInput(ctx, o.ownerUrn).urn
    return { owner, type, typeUrn: o.ownershipTypeUrn ?? systemOwnershipTypeUrn(type) }
  })
  await write(ctx, [
    upsert(domain, 'domainProperties', properties),
    upsert(domain, 'ownership', { owners, lastModified: stampOf(ctx) }),
  ])
  return domain.urn
}

export const domainMutations = { setDomain, unsetDomain, batchSetDomain, createDomain }
