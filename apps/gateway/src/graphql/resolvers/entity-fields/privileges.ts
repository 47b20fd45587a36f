import { parseUrn } from '@catalog/core'
import type { CatalogContext } from '../../context.js'
import type { EntitySource } from '../../mappers/common.js'

type Privileges = Record<string, boolean>

/** Which of `privileges` the caller holds on `resource` (platform-wide when absent); auth off: all (the root user). */
async function holds(
  ctx: CatalogContext,
  privileges: readonly string[],
  resource?: string,
): Promise<Set<string>> {
  if (!ctx.authorizer) return new Set(privileges)
  return ctx.authorizer.granted(ctx.actor, privileges, resource)
}

/** Either EDIT_ENTITY (all edits) or `privilege` on `urn`. */
async function canEdit(ctx: CatalogContext, urn: string, privilege: string): Promise<boolean> {
  return (await holds(ctx, ['EDIT_ENTITY', privilege], urn)).size > 0
}

/** The parent node of a glossary term or node, from its info aspect. */
async function parentNode(ctx: CatalogContext, urn: string): Promise<string | undefined> {
  const a = (await ctx.graph.loader.load(urn)).aspects
  const parent = (a.glossaryTermInfo ?? a.glossaryNodeInfo)?.parentNode
  return typeof parent === 'string' ? parent : undefined
}

/** MANAGE_GLOSSARY_CHILDREN (or every edit) on a glossary node. */
function canManageChildren(ctx: CatalogContext, node: string): Promise<boolean> {
  return canEdit(ctx, node, 'MANAGE_GLOSSARY_CHILDREN')
}

async function glossaryPrivileges(ctx: CatalogContext, urn: string, isNode: boolean): Promise<Privileges> {
  if ((await holds(ctx, ['MANAGE_GLOSSARIES'])).size > 0) {
    return isNode ? { canManageEntity: true, canManageChildren: true } : { canManageEntity: true }
  }
  const parent = await parentNode(ctx, urn)
  const out: Privileges = { canManageEntity: parent ? await canManageChildren(ctx, parent) : false }
  if (isNode) out.canManageChildren = await canManageChildren(ctx, urn)
  return out
}

/**
 * `privileges` of an entity, as DataHub's EntityPrivilegesResolver: glossary terms and nodes
 * answer whether the caller may manage them (and a node's children); datasets, charts,
 * dashboards and data jobs whether it may edit their lineage (and embeds, and queries on
 * datasets). Other entity types, and the other fields, are unset, as in DataHub.
 */
export async function entityPrivileges(
  source: EntitySource,
  _args: unknown,
  ctx: CatalogContext,
): Promise<Privileges> {
  const type = parseUrn(source.urn).entityType
  const urn = source.urn
  switch (type) {
    case 'glossaryTerm':
      return glossaryPrivileges(ctx, urn, false)
    case 'glossaryNode':
      return glossaryPrivileges(ctx, urn, true)
    case 'dataset':
      return {
        canEditLineage: await canEdit(ctx, urn, 'EDIT_LINEAGE'),
        canEditEmbed: await canEdit(ctx, urn, 'EDIT_ENTITY_EMBED'),
        canEditQueries: await canEdit(ctx, urn, 'EDIT_ENTITY_QUERIES'),
      }
    case 'chart':
    case 'dashboard':
      return {
        canEditLineage: await canEdit(ctx, urn, 'EDIT_LINEAGE'),
        canEditEmbed: await canEdit(ctx, urn, 'EDIT_ENTITY_EMBED'),
      }
    case 'dataJob':
      return { canEditLineage: await canEdit(ctx, urn, 'EDIT_LINEAGE') }
    default:
      return {}
  }
}
