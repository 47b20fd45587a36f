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
 * DataHub's `addCommonPrivileges`: each field of every entity's privileges, with the privilege
 * that grants it besides EDIT_ENTITY ("all privileges").
 */
const COMMON_EDITS: Readonly<Record<string, string>> = {
  canEditLineage: 'EDIT_LINEAGE',
  canEditProperties: 'EDIT_ENTITY_PROPERTIES',
  canEditAssertions: 'EDIT_ENTITY_ASSERTIONS',
  canEditIncidents: 'EDIT_ENTITY_INCIDENTS',
  canEditDomains: 'EDIT_DOMAINS_PRIVILEGE',
  canEditDataProducts: 'EDIT_ENTITY_DATA_PRODUCTS',
  canEditDeprecation: 'EDIT_DEPRECATION_PRIVILEGE',
  canEditGlossaryTerms: 'EDIT_ENTITY_GLOSSARY_TERMS',
  canEditTags: 'EDIT_ENTITY_TAGS',
  canEditOwners: 'EDIT_ENTITY_OWNERS',
  canEditDescription: 'EDIT_ENTITY_DOCS',
  canEditLinks: 'EDIT_ENTITY_DOC_LINKS',
  canManageAssetSummary: 'MANAGE_ASSET_SUMMARY',
}
const EMBED = { canEditEmbed: 'EDIT_ENTITY_EMBED' }
/** A dataset's own edits (its columns' tags, terms and descriptions; queries; embeds). */
const DATASET_EDITS: Readonly<Record<string, string>> = {
  ...EMBED,
  canEditQueries: 'EDIT_ENTITY_QUERIES',
  canEditSchemaFieldTags: 'EDIT_DATASET_COL_TAGS',
  canEditSchemaFieldGlossaryTerms: 'EDIT_DATASET_COL_GLOSSARY_TERMS',
  canEditSchemaFieldDescription: 'EDIT_DATASET_COL_DESCRIPTION',
}
/** A dataset's view privileges: granted by the privilege alone (EDIT_ENTITY is no view grant). */
const DATASET_VIEWS: Readonly<Record<string, string>> = {
  canViewDatasetUsage: 'VIEW_DATASET_USAGE',
  canViewDatasetProfile: 'VIEW_DATASET_PROFILE',
}

/** Each field of `edits` and `views`, answered from one look-up of what the caller holds on `urn`. */
async function privilegesOf(
  ctx: CatalogContext,
  urn: string,
  edits: Readonly<Record<string, string>>,
  views: Readonly<Record<string, string>> = {},
): Promise<Privileges> {
  const granted = await holds(ctx, ['EDIT_ENTITY', ...Object.values(edits), ...Object.values(views)], urn)
  const all = granted.has('EDIT_ENTITY')
  const out: Privileges = {}
  for (const [field, privilege] of Object.entries(edits)) out[field] = all || granted.has(privilege)
  for (const [field, privilege] of Object.entries(views)) out[field] = granted.has(privilege)
  return out
}

/**
 * `privileges` of an entity, as DataHub's EntityPrivilegesResolver: every entity answers the
 * common edits (lineage, properties, assertions, incidents, domains, data products, deprecation,
 * terms, tags, owners, description, links, asset summary); glossary terms and nodes also whether the caller may
 * manage them (and a node's children); datasets their columns' edits, queries, embeds and usage
 * and profile views; charts and dashboards embeds. The other fields are unset, as in DataHub.
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
    case 'glossaryNode': {
      const [common, own] = await Promise.all([
        privilegesOf(ctx, urn, COMMON_EDITS),
        glossaryPrivileges(ctx, urn, type === 'glossaryNode'),
      ])
      return { ...common, ...own }
    }
    case 'dataset':
      return privilegesOf(ctx, urn, { ...COMMON_EDITS, ...DATASET_EDITS }, DATASET_VIEWS)
    case 'chart':
    case 'dashboard':
      return privilegesOf(ctx, urn, { ...COMMON_EDITS, ...EMBED })
    default:
      return privilegesOf(ctx, urn, COMMON_EDITS)
  }
}
