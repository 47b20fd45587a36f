import type { LoadedEntity } from '../entity-loader.js'
import { auditStamp, customProperties, type Mapped, ref, status, str, subTypes } from './common.js'
import { type EntityMapping, existsField } from './types.js'

type Json = Record<string, unknown>
const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined

/**
 * `DataProcessInstance` as DataHub's DataProcessInstanceMapper: its properties (and the
 * deprecated `name`, `created` and `externalUrl` from them), platform, sub-types, status and the
 * job, flow or dataset it is a run of (`parentTemplate`). Its run events are the `state` field's
 * own read; `mlTrainingRunProperties` answers null here.
 */
function mapDataProcessInstance(e: LoadedEntity): Mapped {
  const a = e.aspects
  const props = a.dataProcessInstanceProperties
  const created = props ? auditStamp(props.created) : null
  return {
    urn: e.urn,
    exists: existsField(e),
    name: str(props?.name),
    created,
    externalUrl: str(props?.externalUrl),
    properties: props
      ? {
          name: str(props.name) ?? '',
          externalUrl: str(props.externalUrl),
          created,
          customProperties: customProperties(props.customProperties, e.urn),
        }
      : null,
    platform: ref(a.dataPlatformInstance?.platform, ['dataPlatform']) ?? null,
    subTypes: subTypes(a.subTypes),
    status: status(a.status),
    parentTemplate: ref(obj(a.dataProcessInstanceRelationships)?.parentTemplate) ?? null,
    mlTrainingRunProperties: null,
  }
}

export const DATA_PROCESS_INSTANCE_MAPPING: EntityMapping = {
  typeName: 'DataProcessInstance',
  entityType: 'DATA_PROCESS_INSTANCE',
  aspects: ['dataProcessInstanceProperties', 'dataProcessInstanceRelationships', 'subTypes', 'status'],
  map: mapDataProcessInstance,
}
