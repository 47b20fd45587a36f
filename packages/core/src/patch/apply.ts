import { ValidationError } from '../errors.js'
import { type ArrayRule, arrayToMap, mapToArray } from './array-map.js'
import { applyOperations } from './json-patch.js'
import { TEMPLATES } from './templates.js'
import { fromTree, isObj, toTree } from './tree.js'
import type { ApplyPatchOptions, PatchRequest } from './types.js'

/**
 * Applies a PATCH proposal to an aspect's latest value, as DataHub does. With the aspect's
 * template: the current value (or the template's default when the aspect is absent) has its keyed
 * arrays turned into objects, the JSON Patch runs on that, and the objects become arrays again.
 * With `arrayPrimaryKeys` or `forceGenericPatch` (DataHub's generic patch), only the request's own
 * keyed arrays are reshaped. An aspect without a template is patched as plain JSON from `{}`.
 * The result is not validated here: the caller validates it like any written aspect.
 */
export function applyPatch(
  aspectName: string,
  current: Record<string, unknown> | undefined,
  request: PatchRequest,
  options: ApplyPatchOptions = {},
): Record<string, unknown> {
  const now = options.now ?? Date.now()
  const template = TEMPLATES.get(aspectName)
  const generic = request.forceGenericPatch || Object.keys(request.arrayPrimaryKeys ?? {}).length > 0
  let base = current
  if (base === undefined) {
    if (template && !template.defaults) {
      throw new ValidationError(
        `Patch not supported for aspect with name ${aspectName}. Default aspect is required because no aspect currently exists${options.urn ? ` for urn ${options.urn}` : ''}`,
      )
    }
    base = template?.defaults?.(now) ?? {}
  }
  const rules: readonly ArrayRule[] = generic
    ? Object.entries(request.arrayPrimaryKeys ?? {}).map(([field, keys]) => ({ field, keys }))
    : (template?.arrays ?? [])
  const reshape = generic ? undefined : template
  let root = toTree(base)
  if (isObj(root)) {
    for (const rule of rules) arrayToMap(root, rule)
    reshape?.transform?.(root, now)
  }
  root = applyOperations(root, request.operations)
  if (isObj(root)) {
    reshape?.rebase?.(root, now)
    for (const rule of rules) mapToArray(root, rule)
  }
  const value = fromTree(root)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ValidationError(`PATCH of ${aspectName} must leave an object, not ${JSON.stringify(value)}`)
  }
  return value as Record<string, unknown>
}
