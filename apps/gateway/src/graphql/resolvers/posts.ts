import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { searchOf } from './search.js'
import type { FacetFilter, OrFilters } from './search-input.js'
import { combineFilters, filterOf } from './view-apply.js'

/** DataHub's page size of `listPosts`. */
const DEFAULT_COUNT = 20
export const POST_ASPECT = 'postInfo'

/** DataHub's `PostInfo` aspect, as stored. */
export interface PostInfo {
  readonly type: string
  readonly content: {
    readonly type: string
    readonly title: string
    readonly description?: string
    readonly link?: string
    readonly media?: { readonly type: string; readonly location: string }
  }
  readonly created: number
  readonly lastModified: number
  readonly auditStamp?: { readonly time: number; readonly actor: string }
  readonly target?: string
}

interface ListPostsInput {
  readonly start?: number | null
  readonly count?: number | null
  readonly query?: string | null
  readonly resourceUrn?: string | null
  readonly orFilters?: OrFilters
}

/** DataHub's `PostMapper`: a stored post as the GraphQL `Post`. */
export function toPost(urn: string, info: PostInfo) {
  const c = info.content
  return {
    __typename: 'Post',
    urn,
    type: 'POST',
    postType: info.type,
    content: {
      contentType: c.type,
      title: c.title,
      description: c.description ?? null,
      link: c.link ?? null,
      media: c.media ?? null,
    },
    lastModified: { time: info.lastModified, actor: info.auditStamp?.actor ?? null },
  }
}

/** Root queries of posts. */
export const postQueries = {
  /**
   * DataHub's `ListPostsResolver`: posts from the search index, last modified first; with
   * `resourceUrn` only the announcements targeting it, with `orFilters` only those matching.
   */
  listPosts: async (_: unknown, { input }: { input: ListPostsInput }, ctx: CatalogContext) => {
    const target: FacetFilter[] = input.resourceUrn ? [{ field: 'target', values: [input.resourceUrn] }] : []
    const filter = combineFilters(filterOf(input.orFilters), filterOf(null, target))
    const answer = await searchOf(ctx).searchAcrossEntities({
      input: input.query || '*',
      entities: ['post'],
      start: input.start ?? 0,
      count: input.count ?? DEFAULT_COUNT,
      ...(filter ? { filter } : {}),
      sortCriteria: [{ field: 'lastModified', order: 'DESCENDING' }],
      searchFlags: { fulltext: true, skipAggregates: true, skipHighlighting: true },
    })
    const stored = await ctx.client.getEntities(answer.metadata.urns, [POST_ASPECT])
    const posts = answer.metadata.urns.flatMap((urn) => {
      const info = stored.get(urn)?.aspects[POST_ASPECT] as AspectValue | undefined
      return info ? [toPost(urn, info as unknown as PostInfo)] : []
    })
    return { start: answer.from, count: answer.pageSize, total: answer.numEntities, posts }
  },
}
