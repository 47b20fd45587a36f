import { InvalidInputError } from '@catalog/core'
import type { CatalogContext } from '../context.js'
import { globalSettingsOf } from '../resolvers/global-settings.js'
import { GLOBAL_SETTINGS_ASPECT, GLOBAL_SETTINGS_URN } from '../resolvers/views.js'
import { patch } from './patch.js'
import { resolveInput, write } from './support.js'

/**
 * DataHub's UpdateDocPropagationSettingsResolver: `globalSettingsInfo.docPropagation`'s column
 * propagation set (the section created enabled when absent), as one PATCH of the settings.
 */
async function updateDocPropagationSettings(
  _: unknown,
  { input }: { input: { docColumnPropagation?: boolean | null } },
  ctx: CatalogContext,
): Promise<boolean> {
  const enabled = input.docColumnPropagation
  // DataHub's setter refuses a null the same way.
  if (enabled == null) throw new InvalidInputError('docColumnPropagation is required')
  const ref = resolveInput(ctx, GLOBAL_SETTINGS_URN)
  const section = (await globalSettingsOf(ctx))?.docPropagation
  const op =
    section && typeof section === 'object'
      ? { op: 'add' as const, path: '/docPropagation/columnPropagationEnabled', value: enabled }
      : {
          op: 'add' as const,
          path: '/docPropagation',
          value: { enabled: true, columnPropagationEnabled: enabled },
        }
  await write(ctx, [patch(ref, GLOBAL_SETTINGS_ASPECT, [op])])
  return true
}

export const globalSettingsMutations = { updateDocPropagationSettings }
