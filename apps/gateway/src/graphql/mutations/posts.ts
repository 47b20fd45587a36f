import { randomUUID } from 'node:crypto'
import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { POST_ASPECT, type PostInfo } from '../resolvers/posts.js'
import { currentAspect, deleteEntity, resolveInput, stampOf, upsert, write } from './support.js'

interface PostContentInput {
  readonly contentType: string
  readonly title: string
  readonly description?: string | null
  readonly link?: string | null
  readonly media?: { readonly type: string; readonly location: string } | null
}
interface CreatePostInput {
  readonly postType: string
  readonly content: PostContentInput
  readonly resourceUrn?: string | null
}
interface UpdatePostInput {
  readonly urn: string
  readonly postType: string
  readonly content: PostContentInput
}

/** DataHub's `PostService.mapPostContent`: absent optional fields left out. */
function contentOf(input: PostContentInput): PostInfo['content'] {
  return {
    type: input.contentType,
    title: input.title,
    ...(input.description != null ? { description: input.description } : {}),
    ...(input.link != null ? { link: input.link } : {}),
    ...(input.media ? { media: { type: input.media.type, location: input.media.location } } : {}),
  }
}

/** The stored post `urn`: DataHub's message when there is none. */
async function existingPost(ctx: CatalogContext, urn: string): Promise<PostInfo> {
  const ref = resolveInput(ctx, urn)
  const info = ref.entity.name === 'post' ? await currentAspect(ctx, ref.urn, POST_ASPECT) : undefined
  if (!info) throw new InvalidInputError('Post does not exist')
  return info as unknown as PostInfo
}

/** DataHub's `CreatePostResolver`: a new post; an entity announcement targets `resourceUrn`. */
async function createPost(_: unknown, { input }: { input: CreatePostInput }, ctx: CatalogContext) {
  const target = input.resourceUrn != null ? resolveInput(ctx, input.resourceUrn).urn : undefined
  const ref = resolveInput(ctx, `urn:li:post:${randomUUID()}`)
  const stamp = stampOf(ctx)
  const info: PostInfo = {
    type: input.postType,
    content: contentOf(input.content),
    created: stamp.time,
    lastModified: stamp.time,
    auditStamp: stamp,
    ...(target ? { target } : {}),
  }
  await write(ctx, [upsert(ref, POST_ASPECT, info as unknown as AspectValue)])
  return true
}

/** DataHub's `UpdatePostResolver`: type and content replaced; creation and target kept. */
async function updatePost(_: unknown, { input }: { input: UpdatePostInput }, ctx: CatalogContext) {
  const current = await existingPost(ctx, input.urn)
  const stamp = stampOf(ctx)
  const info: PostInfo = {
    ...current,
    type: input.postType,
    content: contentOf(input.content),
    lastModified: stamp.time,
    auditStamp: stamp,
  }
  await write(ctx, [upsert(resolveInput(ctx, input.urn), POST_ASPECT, info as unknown as AspectValue)])
  return true
}

/** DataHub's `DeletePostResolver`: a hard delete of an existing post. */
async function deletePost(_: unknown, { urn }: { urn: string }, ctx: CatalogContext) {
  await existingPost(ctx, urn)
  await write(ctx, [deleteEntity(resolveInput(ctx, urn))])
  return true
}

/** Post mutations. */
export const postMutations = { createPost, updatePost, deletePost }
