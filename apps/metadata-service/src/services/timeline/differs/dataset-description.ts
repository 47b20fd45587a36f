import { str } from '../associations.js'
import { type ChangeEvent, changeEvent, type Differ } from '../types.js'

/**
 * The `description` of `editableDatasetProperties` or `datasetProperties` (DOCUMENTATION):
 * DataHub's EditableDatasetProperties / DatasetPropertiesChangeEventGenerator, MINOR each.
 * `withParameters` adds `parameters.description`, as the non-editable generator does.
 */
function descriptionDiffer(withParameters: boolean): Differ {
  return (previous, next, ctx) => {
    if (ctx.category !== 'DOCUMENTATION') return []
    const base = str(previous?.description)
    const target = str(next?.description)
    const urn = ctx.entityUrn
    const event = (operation: 'ADD' | 'REMOVE' | 'MODIFY', description: string, value: string): ChangeEvent =>
      changeEvent({
        entityUrn: urn,
        category: 'DOCUMENTATION',
        operation,
        semVerChange: 'MINOR',
        description,
        ...(withParameters ? { parameters: { description: value } } : {}),
        auditStamp: ctx.auditStamp,
      })
    if (base === undefined && target !== undefined)
      return [event('ADD', `Documentation for '${urn}' has been added: '${target}'.`, target)]
    if (base !== undefined && target === undefined)
      return [event('REMOVE', `Documentation for '${urn}' has been removed: '${base}'.`, base)]
    if (base !== undefined && target !== undefined && base !== target)
      return [
        event('MODIFY', `Documentation of '${urn}' has been changed from '${base}' to '${target}'.`, target),
      ]
    return []
  }
}

export const editableDatasetPropertiesDiffer = descriptionDiffer(false)
export const datasetPropertiesDiffer = descriptionDiffer(true)
