import { changeEvent, type Differ } from '../types.js'

/**
 * `deprecation` (DEPRECATION, and LIFECYCLE here): DataHub's DeprecationChangeEventGenerator,
 * a MODIFY with `parameters.status` DEPRECATED or ACTIVE when `deprecated` flips.
 */
export const deprecationDiffer: Differ = (previous, next, ctx) => {
  const was = previous?.deprecated === true
  const is = next?.deprecated === true
  if (was === is) return []
  return [
    changeEvent({
      category: 'DEPRECATION',
      operation: 'MODIFY',
      entityUrn: ctx.entityUrn,
      auditStamp: ctx.auditStamp,
      parameters: { status: is ? 'DEPRECATED' : 'ACTIVE' },
    }),
  ]
}

/**
 * `status` (LIFECYCLE): DataHub's StatusChangeEventGenerator, SOFT_DELETE when `removed`
 * becomes true and REINSTATE when it becomes false again.
 */
export const statusDiffer: Differ = (previous, next, ctx) => {
  const was = previous?.removed === true
  const is = next?.removed === true
  if (was === is) return []
  return [
    changeEvent({
      category: 'LIFECYCLE',
      operation: is ? 'SOFT_DELETE' : 'REINSTATE',
      entityUrn: ctx.entityUrn,
      auditStamp: ctx.auditStamp,
    }),
  ]
}
