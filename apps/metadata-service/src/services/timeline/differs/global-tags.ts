import { diffAssociations, TAGS } from '../associations.js'
import type { Differ } from '../types.js'

/** `globalTags` (TAG): DataHub's GlobalTagsChangeEventGenerator. */
export const globalTagsDiffer: Differ = (previous, next, ctx) =>
  ctx.category === 'TAG'
    ? diffAssociations(TAGS, previous?.tags, next?.tags, ctx.entityUrn, ctx.auditStamp)
    : []
