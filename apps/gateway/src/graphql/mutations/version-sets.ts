import { type EntityRef, InvalidInputError } from '@catalog/core'
import type { AspectValue, MetadataProposal } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { listEntities } from '../resolvers/users-groups.js'
import { oneAtATime, retryingRaces } from './compare-and-set.js'
import { patch } from './patch.js'
import { currentAspect, resolveInput, stampOf, typedRef, upsert, write } from './support.js'

const VERSION = 'versionProperties'
const SET = 'versionSetProperties'
/** The only scheme DataHub generates sort ids for: eight letters A-Z, counted in base 26. */
const GENERATED = 'ALPHANUMERIC_GENERATED_BY_DATAHUB'
const FIRST_SORT_ID = 'AAAAAAAA'
/** DataHub's actor of a source creation time given without a creator. */
const UNKNOWN_ACTOR = 'urn:li:corpuser:UNKNOWN'

/** DataHub's `AlphanumericSortIdGenerator.increment`: the next of eight letters A-Z (ZZZZZZZZ wraps). */
function nextSortId(sortId: string): string {
  if (sortId.length !== 8) throw new InvalidInputError('Input string must be exactly 8 characters long')
  const letters = [...sortId]
  for (const c of letters) {
    if (c < 'A' || c > 'Z') throw new InvalidInputError(`Invalid character in input string: ${c}`)
  }
  for (let i = letters.length - 1; i >= 0; i--) {
    if (letters[i] !== 'Z') {
      letters[i] = String.fromCharCode((letters[i] as string).charCodeAt(0) + 1)
      return letters.join('')
    }
    letters[i] = 'A'
  }
  return letters.join('')
}

/** A version set URN from input: a 400 when it is malformed or of another type (DataHub's message). */
function setRef(ctx: CatalogContext, urn: string | null | undefined): EntityRef {
  return typedRef(ctx, urn ?? '', 'versionSet', `Version Set urn ${urn} must be of type Version Set.`)
}

interface LinkInput {
  readonly versionSet: string
  readonly linkedEntity: string
  readonly version: string
  readonly sourceTimestamp?: number | null
  readonly sourceCreator?: string | null
  readonly comment?: string | null
}

/**
 * DataHub's LinkAssetVersionResolver (`linkLatestVersion`): the entity becomes the set's newest
 * version, labelled `version`, its sort id the one after the latest's (DataHub's generated
 * scheme; AAAAAAAA for a new set); the write keeps the set (see the metadata service's version
 * sets). An entity already in this set is left as it is (null); in another set, refused.
 */
async function linkAssetVersion(_: unknown, args: { input: LinkInput }, ctx: CatalogContext) {
  const { input } = args
  const set = setRef(ctx, input.versionSet)
  const entity = resolveInput(ctx, input.linkedEntity)
  const setType = set.key.entityType
  if (entity.entity.name !== setType) {
    throw new InvalidInputError(
      `Entity type must match Version Set's specified type: ${setType} invalid type: ${entity.entity.name}`,
    )
  }
  // One link or unlink of a set at a time here; a race with another process is written again.
  return oneAtATime(`versionSet\n${set.urn}`, () =>
    retryingRaces(async () => {
      const existing = await currentAspect(ctx, entity.urn, VERSION)
      if (existing) {
        if (existing.versionSet === set.urn) return null
        throw new InvalidInputError(
          `Version already exists for specified entity: ${entity.urn} for a different Version Set: ${String(existing.versionSet)}`,
        )
      }
      const stamp = stampOf(ctx)
      const value: AspectValue = {
        versionSet: set.urn,
        version: { versionTag: input.version, metadataAttribution: { time: stamp.time, actor: stamp.actor } },
        aliases: [],
        sortId: await nextInSet(ctx, set, entity.entity.name),
        versioningScheme: GENERATED,
        metadataCreatedTimestamp: stamp,
      }
      if (input.comment != null) value.comment = input.comment
      if (input.sourceTimestamp != null) {
        value.sourceCreatedTimestamp = {
          time: input.sourceTimestamp,
          actor: input.sourceCreator ? `urn:li:corpuser:${input.sourceCreator}` : UNKNOWN_ACTOR,
        }
      }
      await write(ctx, [upsert(entity, VERSION, value)])
      return { urn: set.urn }
    }),
  )
}

/**
 * The sort id of a new version of `set`: the one after its latest version's (AAAAAAAA for a new
 * set). Only DataHub's generated scheme is continued. A latest that is no longer a version of the
 * set gives way to the highest sort id the set's versions have.
 */
async function nextInSet(ctx: CatalogContext, set: EntityRef, entityType: string): Promise<string> {
  const properties = await currentAspect(ctx, set.urn, SET)
  if (!properties) return FIRST_SORT_ID
  if (properties.versioningScheme !== GENERATED) {
    throw new InvalidInputError(`Only versioning scheme supported is ${GENERATED}`)
  }
  let latest =
    typeof properties.latest === 'string' ? await currentAspect(ctx, properties.latest, VERSION) : undefined
  if (latest?.versionSet !== set.urn) {
    const [highest] = (await versionsOf(ctx, set, entityType, 1)).urns
    latest = highest ? await currentAspect(ctx, highest, VERSION) : undefined
  }
  return typeof latest?.sortId === 'string' ? nextSortId(latest.sortId) : FIRST_SORT_ID
}

/** The first `count` versions of `set`, highest sort id first, latest or not. */
function versionsOf(ctx: CatalogContext, set: EntityRef, entityType: string, count: number) {
  return listEntities(
    ctx,
    entityType,
    { start: 0, count, orFilters: [{ and: [{ field: 'versionSet', values: [set.urn] }] }] },
    [{ field: 'versionSortId', order: 'DESCENDING' }],
    { filterNonLatestVersions: false },
  )
}

/**
 * DataHub's UnlinkAssetVersionResolver (`unlinkVersion`): the entity's version goes; when it was
 * the latest, the next one by sort id becomes the latest, or, none left, the set goes. Null when
 * the entity is no version; refused when it is a version of another set.
 */
async function unlinkAssetVersion(
  _: unknown,
  args: { input: { versionSet?: string | null; unlinkedEntity?: string | null } },
  ctx: CatalogContext,
) {
  const set = setRef(ctx, args.input.versionSet)
  const entity = resolveInput(ctx, args.input.unlinkedEntity ?? '')
  return oneAtATime(`versionSet\n${set.urn}`, () => retryingRaces(() => unlinkOnce(ctx, set, entity)))
}

async function unlinkOnce(ctx: CatalogContext, set: EntityRef, entity: EntityRef) {
  const existing = await currentAspect(ctx, entity.urn, VERSION)
  if (!existing) return null
  if (existing.versionSet !== set.urn) {
    throw new InvalidInputError(
      `Version is not linked to specified version set: ${set.urn} but is linked to: ${String(existing.versionSet)}`,
    )
  }
  const proposals: MetadataProposal[] = [
    { entityType: entity.entity.name, entityUrn: entity.urn, changeType: 'DELETE', aspectName: VERSION },
  ]
  const properties = await currentAspect(ctx, set.urn, SET)
  if (properties?.latest === entity.urn) {
    const next = (await versionsOf(ctx, set, entity.entity.name, 2)).urns.find((u) => u !== entity.urn)
    if (next) {
      // Guarded: written only while the set still names this version as its latest.
      proposals.push(
        patch(set, SET, [
          { op: 'test', path: '/latest', value: entity.urn },
          { op: 'add', path: '/latest', value: next },
        ]),
        patch(resolveInput(ctx, next), VERSION, [{ op: 'add', path: '/isLatest', value: true }]),
      )
    } else {
      proposals.push({
        entityType: 'versionSet',
        entityUrn: set.urn,
        changeType: 'DELETE',
        aspectName: 'versionSetKey',
      })
    }
  }
  await write(ctx, proposals)
  return { urn: set.urn }
}

export const versionSetMutations = { linkAssetVersion, unlinkAssetVersion }
