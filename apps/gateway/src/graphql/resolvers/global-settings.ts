import type { AspectValue } from '../clients/metadata-client.js'
import type { CatalogContext } from '../context.js'
import { DEFAULT_HOME_TEMPLATE, existingTemplate } from '../mappers/page-template.js'
import { GLOBAL_SETTINGS_ASPECT, GLOBAL_SETTINGS_URN } from './views.js'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined

/** The stored `globalSettingsInfo`; undefined when none was written. */
export async function globalSettingsOf(ctx: CatalogContext): Promise<AspectValue | undefined> {
  const stored = await ctx.client.getEntities([GLOBAL_SETTINGS_URN], [GLOBAL_SETTINGS_ASPECT])
  return stored.get(GLOBAL_SETTINGS_URN)?.aspects[GLOBAL_SETTINGS_ASPECT]
}

/** Root queries of the global settings' feature sections. */
export const globalSettingsQueries = {
  /**
   * DataHub's DocPropagationSettingsResolver: whether column documentation propagates (the
   * model's default, on, once the section exists; off without it, as DataHub answers).
   */
  docPropagationSettings: async (_: unknown, __: unknown, ctx: CatalogContext) => {
    const section = obj((await globalSettingsOf(ctx))?.docPropagation)
    return { docColumnPropagation: section ? section.columnPropagationEnabled !== false : false }
  },

  /**
   * DataHub's GlobalHomePageSettingsResolver: the organization's home page template, DataHub's
   * bootstrapped `home_default_1` until the settings name another; null once it no longer exists.
   */
  globalHomePageSettings: async (_: unknown, __: unknown, ctx: CatalogContext) => {
    const homePage = obj((await globalSettingsOf(ctx))?.homePage)
    const template = homePage ? homePage.defaultTemplate : DEFAULT_HOME_TEMPLATE
    return { defaultTemplate: await existingTemplate(template, ctx.client) }
  },
}
