import type { AspectValue } from '../clients/metadata-client.js'
import type { LoadedEntity } from '../entity-loader.js'
import {
  auditStamp,
  type EntitySource,
  enumValue,
  globalTags,
  list,
  type Mapped,
  num,
  obj,
  ref,
  str,
} from './common.js'
import type { EntityMapping } from './types.js'

/**
 * DataHub's incident priorities by stored number (`IncidentMapper.mapPriority`): 0 is CRITICAL,
 * 3 is LOW; and the number stored for each (`IncidentUtils.mapIncidentPriority`).
 */
const INCIDENT_PRIORITIES: readonly string[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW']

/** The stored number of an `IncidentPriority` symbol (CRITICAL 0 ... LOW 3). */
export const priorityNumber = (priority: string): number => INCIDENT_PRIORITIES.indexOf(priority)

const INCIDENT_TYPES = ['FRESHNESS', 'VOLUME', 'FIELD', 'SQL', 'DATA_SCHEMA', 'OPERATIONAL', 'CUSTOM']
const STATES = ['ACTIVE', 'RESOLVED']
const STAGES = ['TRIAGE', 'INVESTIGATION', 'WORK_IN_PROGRESS', 'FIXED', 'NO_ACTION_REQUIRED']
const SOURCE_TYPES = ['MANUAL', 'ASSERTION_FAILURE']

/** `IncidentStatus` (state, stage, message, last update). */
function incidentStatus(v: unknown): Mapped | null {
  const s = obj(v)
  const state = enumValue(s?.state, STATES)
  if (!s || !state) return null
  return {
    state,
    stage: enumValue(s.stage, STAGES),
    message: str(s.message),
    lastUpdated: auditStamp(s.lastUpdated),
  }
}

/** The assignees, each a user or a group (DataHub refuses any other assignee). */
function assignees(v: unknown): EntitySource[] | null {
  if (!Array.isArray(v)) return null
  return list(v)
    .map((a) => ref(obj(a)?.actor, ['corpuser', 'corpGroup']))
    .filter((a) => a !== undefined)
}

function source(v: unknown): Mapped | null {
  const s = obj(v)
  const type = enumValue(s?.type, SOURCE_TYPES)
  return type ? { type, source: ref(s?.sourceUrn) ?? null } : null
}

/**
 * `Incident` as DataHub's IncidentMapper: type, title, description, status, priority (its stored
 * number as LOW..CRITICAL), assignees, the first entity it is raised on, source, start and
 * creation, tags.
 */
function mapIncident(e: LoadedEntity): Mapped {
  const info: AspectValue | undefined = e.aspects.incidentInfo
  const status = incidentStatus(info?.status)
  const priority = num(info?.priority)
  return {
    urn: e.urn,
    incidentType: enumValue(info?.type, INCIDENT_TYPES),
    customType: str(info?.customType),
    title: str(info?.title),
    description: str(info?.description),
    incidentStatus: status,
    status,
    priority: priority !== null ? (INCIDENT_PRIORITIES[priority] ?? null) : null,
    assignees: assignees(info?.assignees),
    entity: ref(list(info?.entities)[0]) ?? null,
    source: source(info?.source),
    startedAt: num(info?.startedAt),
    created: info ? auditStamp(info.created) : null,
    tags: globalTags(e.aspects.globalTags, e.urn),
  }
}

export const INCIDENT_MAPPING: EntityMapping = {
  typeName: 'Incident',
  entityType: 'INCIDENT',
  aspects: ['incidentInfo', 'globalTags'],
  map: mapIncident,
}
