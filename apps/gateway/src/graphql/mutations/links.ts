import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { type PatchOp, patch, pointer } from './patch.js'
import { currentAspect, resolveInput, stampOf, write } from './support.js'

/** Links are addressed as `/elements/<url>/<label>`: DataHub tells links apart by url and label. */
const LINK_KEYS = { elements: ['url', 'description'] }

interface LinkSettingsInput {
  readonly showInAssetPreview?: boolean | null
}

interface AddLinkInput {
  readonly linkUrl: string
  readonly label: string
  readonly resourceUrn: string
  readonly settings?: LinkSettingsInput | null
}

interface RemoveLinkInput {
  readonly linkUrl: string
  readonly label?: string | null
  readonly resourceUrn: string
}

interface UpdateLinkInput {
  readonly currentUrl: string
  readonly currentLabel: string
  readonly linkUrl: string
  readonly label: string
  readonly resourceUrn: string
  readonly settings?: LinkSettingsInput | null
}

/** What `java.net.URI` refuses: whitespace, control characters and the unsafe ASCII punctuation. */
const NOT_A_URI = /[\s\p{Cc}<>"{}|\\^`]/u

/** DataHub's `LinkUtils.validateAddRemoveInput` / `validateUpdateInput`, messages word for word. */
async function validateLinkInput(ctx: CatalogContext, resourceUrn: string, urls: readonly string[]) {
  const ref = resolveInput(ctx, resourceUrn)
  for (const url of urls) {
    if (url.length === 0 || NOT_A_URI.test(url)) {
      throw new InvalidInputError(
        `Failed to change institutional memory for resource ${ref.urn}. Expected an url.`,
      )
    }
  }
  if (!(await ctx.client.exists(ref.urn))) {
    throw new InvalidInputError(
      `Failed to change institutional memory for resource ${ref.urn}. Resource does not exist.`,
    )
  }
  return ref
}

async function links(ctx: CatalogContext, urn: string): Promise<AspectValue[]> {
  const current = await currentAspect(ctx, urn, 'institutionalMemory')
  return Array.isArray(current?.elements) ? (current.elements as AspectValue[]) : []
}

const same = (url: string, label: string) => (l: AspectValue) => l.url === url && l.description === label

/** DataHub's AddLinkResolver: a link with the same url and label is left as it is. */
async function addLink(_: unknown, { input }: { input: AddLinkInput }, ctx: CatalogContext) {
  const ref = await validateLinkInput(ctx, input.resourceUrn, [input.linkUrl])
  if ((await links(ctx, ref.urn)).some(same(input.linkUrl, input.label))) return true
  const value: AspectValue = { url: input.linkUrl, description: input.label, createStamp: stampOf(ctx) }
  if (input.settings?.showInAssetPreview != null) {
    value.settings = { showInAssetPreview: input.settings.showInAssetPreview }
  }
  const ops: PatchOp[] = [{ op: 'add', path: pointer('elements', input.linkUrl, input.label), value }]
  await write(ctx, [patch(ref, 'institutionalMemory', ops, LINK_KEYS)])
  return true
}

/** DataHub's RemoveLinkResolver: with a label, that link; without, every link to the url. */
async function removeLink(_: unknown, { input }: { input: RemoveLinkInput }, ctx: CatalogContext) {
  const ref = await validateLinkInput(ctx, input.resourceUrn, [input.linkUrl])
  const path =
    input.label != null ? pointer('elements', input.linkUrl, input.label) : pointer('elements', input.linkUrl)
  await write(ctx, [patch(ref, 'institutionalMemory', [{ op: 'remove', path }], LINK_KEYS)])
  return true
}

/**
 * DataHub's UpdateLinkResolver: the link must exist and the new url and label must not name
 * another one. The patch tests that the link is still there, so a concurrent removal fails the
 * update instead of bringing the link back.
 */
async function updateLink(_: unknown, { input }: { input: UpdateLinkInput }, ctx: CatalogContext) {
  const ref = await validateLinkInput(ctx, input.resourceUrn, [input.currentUrl, input.linkUrl])
  const all = await links(ctx, ref.urn)
  const current = all.find(same(input.currentUrl, input.currentLabel))
  if (!current) {
    throw new InvalidInputError(
      `Failed to update the link '${input.currentUrl}' with label '${input.currentLabel}'. The link does not exist`,
    )
  }
  if (all.some((l) => l !== current && same(input.linkUrl, input.label)(l))) {
    throw new InvalidInputError(`The link '${input.linkUrl}' with label '${input.label}' already exists`)
  }
  const value: AspectValue = {
    url: input.linkUrl,
    description: input.label,
    createStamp: current.createStamp,
    updateStamp: stampOf(ctx),
  }
  const settings = input.settings?.showInAssetPreview ?? (current.settings as AspectValue | undefined)
  if (settings != null)
    value.settings = typeof settings === 'boolean' ? { showInAssetPreview: settings } : settings
  const at = pointer('elements', input.currentUrl, input.currentLabel)
  const ops: PatchOp[] = [
    { op: 'test', path: `${at}/url`, value: input.currentUrl },
    { op: 'remove', path: at },
    { op: 'add', path: pointer('elements', input.linkUrl, input.label), value },
  ]
  await write(ctx, [patch(ref, 'institutionalMemory', ops, LINK_KEYS)])
  return true
}

/**
 * DataHub's UpsertLinkResolver (`LinkUtils.upsertLink`): a link with the same url and label is
 * replaced, keeping its create stamp (and its settings unless new ones are given), with an update
 * stamp; any other is added. One keyed PATCH `add`, so concurrent upserts of other links are kept.
 */
async function upsertLink(_: unknown, { input }: { input: AddLinkInput }, ctx: CatalogContext) {
  const ref = await validateLinkInput(ctx, input.resourceUrn, [input.linkUrl])
  const current = (await links(ctx, ref.urn)).find(same(input.linkUrl, input.label))
  const value: AspectValue = { url: input.linkUrl, description: input.label }
  value.createStamp = current?.createStamp ?? stampOf(ctx)
  if (current) value.updateStamp = stampOf(ctx)
  const show = input.settings?.showInAssetPreview
  if (show != null) value.settings = { showInAssetPreview: show }
  else if (current?.settings != null) value.settings = current.settings
  const ops: PatchOp[] = [{ op: 'add', path: pointer('elements', input.linkUrl, input.label), value }]
  await write(ctx, [patch(ref, 'institutionalMemory', ops, LINK_KEYS)])
  return true
}

export const linkMutations = { addLink, removeLink, updateLink, upsertLink }
