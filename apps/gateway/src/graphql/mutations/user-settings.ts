import { InvalidInputError } from '@catalog/core'
import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { compareAndSet } from './compare-and-set.js'
import { patch, pointer } from './patch.js'
import { resolveInput, write } from './support.js'

const ASPECT = 'corpUserSettings'

/** DataHub's `UserSetting` enum, and the `CorpUserAppearanceSettings` field each one sets. */
const APPEARANCE_FIELDS: Readonly<Record<string, string>> = {
  SHOW_SIMPLIFIED_HOMEPAGE: 'showSimplifiedHomepage',
  SHOW_THEME_V2: 'showThemeV2',
}

interface UpdateUserSettingInput {
  readonly name: string
  readonly value: boolean
}
interface LocaleInput {
  readonly language?: string | null
}
interface HomePageInput {
  readonly pageTemplate?: string | null
  readonly newDismissedAnnouncements?: ReadonlyArray<string | null> | null
  readonly removePageTemplate?: boolean | null
}

/** The caller's settings as DataHub's resolvers start from them: a user without gets `showSimplifiedHomepage: false`. */
function settingsOf(current: AspectValue | undefined): AspectValue {
  return current ? structuredClone(current) : { appearance: { showSimplifiedHomepage: false } }
}

function record(value: unknown): AspectValue {
  return value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as AspectValue) } : {}
}

/**
 * DataHub's `UpdateUserSettingResolver`: one appearance flag of the caller's `corpUserSettings`,
 * as a PATCH of that flag alone (applied to the latest settings inside the write).
 */
async function updateUserSetting(
  _: unknown,
  { input }: { input: UpdateUserSettingInput },
  ctx: CatalogContext,
) {
  const field = APPEARANCE_FIELDS[input.name]
  if (!field) throw new InvalidInputError(`User Setting name ${input.name} not currently supported`)
  const user = resolveInput(ctx, ctx.actor)
  await write(ctx, [
    patch(user, ASPECT, [{ op: 'add', path: pointer('appearance', field), value: input.value }]),
  ])
  return true
}

/** DataHub's `UpdateCorpUserLocaleSettingsResolver`: the caller's language set, or removed when null. */
async function updateCorpUserLocaleSettings(
  _: unknown,
  { input }: { input: LocaleInput },
  ctx: CatalogContext,
) {
  const user = resolveInput(ctx, ctx.actor)
  await compareAndSet(ctx, user, ASPECT, (current) => {
    const settings = settingsOf(current)
    const locale = record(settings.locale)
    if (input.language != null) locale.language = input.language
    else delete locale.language
    return { ...settings, locale }
  })
  return true
}

/**
 * DataHub's `UpdateUserHomePageSettingsResolver`: the caller's home page template set (or removed
 * with `removePageTemplate`), and the new dismissed announcements appended, each once.
 */
async function updateUserHomePageSettings(
  _: unknown,
  { input }: { input: HomePageInput },
  ctx: CatalogContext,
) {
  const user = resolveInput(ctx, ctx.actor)
  const template = input.pageTemplate != null ? resolveInput(ctx, input.pageTemplate).urn : undefined
  const dismissed = (input.newDismissedAnnouncements ?? []).map((urn, i) => {
    if (urn == null) throw new InvalidInputError(`newDismissedAnnouncements[${i}] is null`)
    return resolveInput(ctx, urn).urn
  })
  await compareAndSet(ctx, user, ASPECT, (current) => {
    const settings = settingsOf(current)
    const homePage = record(settings.homePage)
    if (input.removePageTemplate === true) delete homePage.pageTemplate
    else if (template !== undefined) homePage.pageTemplate = template
    if (input.newDismissedAnnouncements != null) {
      const stored = Array.isArray(homePage.dismissedAnnouncements) ? homePage.dismissedAnnouncements : []
      homePage.dismissedAnnouncements = [...new Set([...stored, ...dismissed])]
    }
    return { ...settings, homePage }
  })
  return true
}

/** The caller's own settings (open to every authenticated caller, as in DataHub). */
export const userSettingMutations = {
  updateUserSetting,
  updateCorpUserLocaleSettings,
  updateUserHomePageSettings,
}
