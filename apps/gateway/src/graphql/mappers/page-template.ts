import { SYSTEM_ACTOR } from '@catalog/core'
import type { AspectValue, MetadataClient } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import { enumValue, list, type Mapped, obj, ref, resolvedStamp, str } from './common.js'
import type { EntityMapping, FieldFn } from './types.js'
import { existsField } from './types.js'

export const TEMPLATE_PROPERTIES = 'dataHubPageTemplateProperties'
export const MODULE_PROPERTIES = 'dataHubPageModuleProperties'
export const TEMPLATE_PREFIX = 'urn:li:dataHubPageTemplate:'
export const MODULE_PREFIX = 'urn:li:dataHubPageModule:'
/** The organization's home page template DataHub bootstraps (and never lets anyone delete). */
export const DEFAULT_HOME_TEMPLATE = `${TEMPLATE_PREFIX}home_default_1`

/** What DataHub's bootstrap stamps its records with. */
const BOOTSTRAP_STAMP = { time: 0, actor: SYSTEM_ACTOR }

/** A global module as DataHub's bootstrap (`page-modules.yaml`) writes it. */
const defaultModule = (name: string, type: string): AspectValue => ({
  name,
  type,
  visibility: { scope: 'GLOBAL' },
  params: {},
  created: BOOTSTRAP_STAMP,
  lastModified: BOOTSTRAP_STAMP,
})

/**
 * DataHub's bootstrapped page modules: the home page's and the asset summaries' built-in ones. They
 * read as stored until a module of the same URN is written.
 */
export const DEFAULT_MODULES: ReadonlyMap<string, AspectValue> = new Map(
  (
    [
      ['your_assets', 'Your Assets', 'OWNED_ASSETS'],
      ['top_domains', 'Domains', 'DOMAINS'],
      ['assets', 'Assets', 'ASSETS'],
      ['child_hierarchy', 'Children', 'CHILD_HIERARCHY'],
      ['data_products', 'Data Products', 'DATA_PRODUCTS'],
      ['related_terms', 'Related Terms', 'RELATED_TERMS'],
      ['platforms', 'Platforms', 'PLATFORMS'],
      ['lineage', 'Lineage', 'LINEAGE'],
      ['columns', 'Columns', 'COLUMNS'],
      ['output_ports', 'Output Ports', 'OUTPUT_PORTS'],
    ] as const
  ).map(([id, name, type]) => [`${MODULE_PREFIX}${id}`, defaultModule(name, type)]),
)

/** DataHub's bootstrapped home page template (`page-templates.yaml`), read as stored until written. */
export const DEFAULT_TEMPLATES: ReadonlyMap<string, AspectValue> = new Map([
  [
    DEFAULT_HOME_TEMPLATE,
    {
      rows: [
        { modules: [`${MODULE_PREFIX}your_assets`] },
        { modules: [`${MODULE_PREFIX}top_domains`, `${MODULE_PREFIX}platforms`] },
      ],
      surface: { surfaceType: 'HOME_PAGE' },
      visibility: { scope: 'GLOBAL' },
      created: BOOTSTRAP_STAMP,
      lastModified: BOOTSTRAP_STAMP,
    },
  ],
])

/** A template's or module's properties: the stored aspect, else the bootstrapped default of its URN. */
export function propertiesOf(urn: string, stored: AspectValue | undefined): AspectValue | undefined {
  return stored ?? DEFAULT_TEMPLATES.get(urn) ?? DEFAULT_MODULES.get(urn)
}

const MODULE_TYPES = [
  'LINK',
  'RICH_TEXT',
  'ASSET_COLLECTION',
  'HIERARCHY',
  'OWNED_ASSETS',
  'DOMAINS',
  'ASSETS',
  'OUTPUT_PORTS',
  'CHILD_HIERARCHY',
  'DATA_PRODUCTS',
  'RELATED_TERMS',
  'PLATFORMS',
  'LINEAGE',
  'COLUMNS',
  'SEMANTIC_MODEL_DATASETS',
  'SEMANTIC_MODEL_METRICS',
  'SEMANTIC_MODEL_RELATIONSHIPS',
  'SEMANTIC_MODEL_DIMENSIONS',
  'AI_CONTEXT',
  'METRIC_SQL',
  'RELATED_METRICS',
]

/** A template that exists (stored, or bootstrapped) as `{urn}`; null for any other value. */
export async function existingTemplate(urn: unknown, client: MetadataClient): Promise<Mapped | null> {
  if (typeof urn !== 'string' || !urn.startsWith(TEMPLATE_PREFIX)) return null
  if (DEFAULT_TEMPLATES.has(urn)) return { urn }
  const found = await client.getEntities([urn], [TEMPLATE_PROPERTIES])
  return found.get(urn)?.aspects[TEMPLATE_PROPERTIES] ? { urn } : null
}

/** Module URNs that exist (stored, or bootstrapped), in order. */
async function existingModules(urns: readonly string[], ctx: Parameters<FieldFn>[1]): Promise<string[]> {
  const stored = urns.filter((u) => !DEFAULT_MODULES.has(u))
  const found = stored.length > 0 ? await ctx.client.getEntities(stored, [MODULE_PROPERTIES]) : new Map()
  return urns.filter((u) => DEFAULT_MODULES.has(u) || found.get(u)?.aspects[MODULE_PROPERTIES] !== undefined)
}

/**
 * `DataHubPageTemplate` as DataHub's PageTemplateMapper: its rows of modules (a module that no
 * longer exists left out), asset summary elements, surface, visibility and stamps.
 */
function mapTemplate(e: LoadedEntity): Mapped {
  const props = propertiesOf(e.urn, e.aspects[TEMPLATE_PROPERTIES])
  if (!props) return { urn: e.urn, properties: null }
  const summary = obj(props.assetSummary)
  const rows: FieldFn = (_args, ctx) =>
    Promise.all(
      list(props.rows).map(async (row) => ({
        modules: (await existingModules(list(obj(row)?.modules).filter(isString), ctx)).map((urn) => ({
          urn,
        })),
      })),
    )
  return {
    urn: e.urn,
    properties: {
      rows,
      assetSummary: summary
        ? {
            summaryElements: list(summary.summaryElements).map((element) => ({
              elementType: str(obj(element)?.elementType),
              structuredProperty: ref(obj(element)?.structuredPropertyUrn, ['structuredProperty']) ?? null,
            })),
          }
        : null,
      surface: { surfaceType: str(obj(props.surface)?.surfaceType) },
      visibility: { scope: str(obj(props.visibility)?.scope) },
      created: resolvedStamp(props.created),
      lastModified: resolvedStamp(props.lastModified),
    },
  }
}

const isString = (v: unknown): v is string => typeof v === 'string'

/** `DataHubPageModule` as DataHub's PageModuleMapper (a type it does not know reads as UNKNOWN). */
function mapModule(e: LoadedEntity): Mapped {
  const props = propertiesOf(e.urn, e.aspects[MODULE_PROPERTIES])
  if (!props) return { urn: e.urn, exists: existsField(e), properties: null }
  const params = obj(props.params) ?? {}
  const link = obj(params.linkParams)
  const richText = obj(params.richTextParams)
  const collection = obj(params.assetCollectionParams)
  const hierarchy = obj(params.hierarchyViewParams)
  return {
    urn: e.urn,
    exists: DEFAULT_MODULES.has(e.urn) ? true : existsField(e),
    properties: {
      name: str(props.name) ?? '',
      type: enumValue(props.type, MODULE_TYPES) ?? 'UNKNOWN',
      visibility: { scope: str(obj(props.visibility)?.scope) },
      params: {
        linkParams: link
          ? { linkUrl: str(link.linkUrl), imageUrl: str(link.imageUrl), description: str(link.description) }
          : null,
        richTextParams: richText ? { content: str(richText.content) } : null,
        assetCollectionParams: collection
          ? {
              assetUrns: list(collection.assetUrns).filter(isString),
              dynamicFilterJson: str(collection.dynamicFilterJson),
            }
          : null,
        hierarchyViewParams: hierarchy
          ? {
              assetUrns: list(hierarchy.assetUrns).filter(isString),
              showRelatedEntities: hierarchy.showRelatedEntities === true,
              relatedEntitiesFilterJson: str(hierarchy.relatedEntitiesFilterJson),
            }
          : null,
      },
      created: resolvedStamp(props.created),
      lastModified: resolvedStamp(props.lastModified),
    },
  }
}

export const PAGE_TEMPLATE_MAPPING: EntityMapping = {
  typeName: 'DataHubPageTemplate',
  entityType: 'DATAHUB_PAGE_TEMPLATE',
  aspects: [TEMPLATE_PROPERTIES],
  map: mapTemplate,
}

export const PAGE_MODULE_MAPPING: EntityMapping = {
  typeName: 'DataHubPageModule',
  entityType: 'DATAHUB_PAGE_MODULE',
  aspects: [MODULE_PROPERTIES],
  map: mapModule,
}

/** `AssetSettings` (an asset's summary templates) from its `assetSettings` aspect; null when absent. */
export function assetSettings(v: AspectValue | undefined): Mapped | null {
  if (!v) return null
  const summary = obj(v.assetSummary)
  return {
    assetSummary: summary
      ? {
          templates: list(summary.templates).map((t) => ({
            template: ((_args, ctx) => existingTemplate(obj(t)?.template, ctx.client)) satisfies FieldFn,
          })),
        }
      : null,
  }
}
